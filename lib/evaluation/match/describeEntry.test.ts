import { describe, expect, it } from 'vitest';
import type { DiffEntry } from '../../domain/diff.js';
import { describeEntry, formatValue } from './describeEntry.js';

describe('describeEntry', () => {
  it.each<[DiffEntry, string]>([
    [{ path: '/unit', kind: 'mismatch', expected: 'celsius', actual: 'fahrenheit' }, '/unit expected "celsius", got "fahrenheit"'],
    [
      { path: '/limit', kind: 'mismatch', expected: 5, actual: '5', coercions: ['numeric_string'] },
      '/limit expected 5, got "5" (numeric_string not allowed by the coercion policy)',
    ],
    [{ path: '/limit', kind: 'type_mismatch', expected: 5, actual: null }, '/limit expected 5, got null'],
    [{ path: '/city', kind: 'missing', expected: 'Paris' }, '/city missing (expected "Paris")'],
    [{ path: '/debug', kind: 'extra', actual: true }, '/debug not expected (got true)'],
    [
      { path: '/d', kind: 'coerced', expected: '2024-01-05', actual: '2024-01-05T00:00:00Z', coercions: ['iso_date'] },
      '/d equal after iso_date',
    ],
    [{ path: '', kind: 'mismatch', expected: 1, actual: 2 }, '(root) expected 1, got 2'],
  ])('%j', (entry, text) => {
    expect(describeEntry(entry)).toBe(text);
  });

  it('shortens long values and survives unprintable ones', () => {
    expect(formatValue('x'.repeat(100))).toBe(`"${'x'.repeat(58)}…`);
    expect(formatValue(10n)).toBe('(unprintable bigint)');
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(formatValue(cycle)).toBe('(unprintable object)');
    expect(formatValue(undefined)).toBe('nothing');
  });
});
