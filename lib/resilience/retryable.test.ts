import { describe, expect, it } from 'vitest';
import { isRetryableStatus, retryAfterInMs } from './retryable.js';

describe('isRetryableStatus', () => {
  it.each([
    [408, true],
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [504, true],
    [599, true],
    [200, false],
    [301, false],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [409, false],
    [422, false],
  ])('%i -> %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });
});

describe('retryAfterInMs', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  it.each<[Record<string, string>, number | undefined]>([
    [{}, undefined],
    [{ 'retry-after-ms': '250' }, 250],
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{ 'retry-after-ms': 'soon', 'retry-after': '2' }, 2000],
    [{ 'retry-after': '1.5' }, 1500],
    [{ 'retry-after': '-3' }, 0],
    [{ 'retry-after': 'Sun, 01 Jun 2025 12:00:05 GMT' }, 5000],
    [{ 'retry-after': 'Sun, 01 Jun 2025 11:00:00 GMT' }, 0],
    [{ 'retry-after': 'whenever' }, undefined],
    [{ 'retry-after': '  ' }, undefined],
  ])('%j -> %s', (headers, expected) => {
    expect(retryAfterInMs(new Headers(headers), now)).toBe(expected);
  });

  it('is undefined without headers', () => {
    expect(retryAfterInMs(undefined)).toBeUndefined();
    expect(retryAfterInMs(null)).toBeUndefined();
  });
});
