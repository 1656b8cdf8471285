import { describe, expect, it } from 'vitest';
import { isAuthorized } from './auth.js';

const keys = { function: 'fn-key', admin: 'admin-key' };

describe('isAuthorized', () => {
  it.each([
    ['anonymous', undefined, true],
    ['anonymous', 'wrong', true],
    ['function', undefined, false],
    ['function', '', false],
    ['function', 'wrong', false],
    ['function', 'fn-key', true],
    ['function', 'admin-key', true],
    ['admin', 'fn-key', false],
    ['admin', 'admin-key', true],
    ['admin', 'admin-key-longer', false],
  ] as const)('%s with key %j -> %s', (level, key, expected) => {
    expect(isAuthorized(level, key, keys)).toBe(expected);
  });
});
