import { describe, expect, it } from 'vitest';
import { parseIsoInstant } from './isoDate.js';

describe('parseIsoInstant', () => {
  it.each([
    ['2024-01-05', Date.UTC(2024, 0, 5)],
    ['2024-01-05T00:00:00Z', Date.UTC(2024, 0, 5)],
    ['2024-01-05T02:00:00+02:00', Date.UTC(2024, 0, 5)],
    ['2024-01-04T19:00:00-0500', Date.UTC(2024, 0, 5)],
    ['2024-01-05 10:30', Date.UTC(2024, 0, 5, 10, 30)],
    ['2024-01-05T10:30:15.250Z', Date.UTC(2024, 0, 5, 10, 30, 15, 250)],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['0099-01-01', -59042995200000],
  ])('%s is an instant', (text, instant) => {
    expect(parseIsoInstant(text)).toBe(instant);
  });

  it.each([
    '2023-02-29',
    '2024-13-01',
    '2024-04-31',
    '2024-01-05T25:00',
    '2024-01-05T10:60',
    '5 Jan 2024',
    '2024-1-5',
    '',
    '2024-01-05T10:00+24:00',
    'x'.repeat(100),
  ])('%s is not ISO-8601', (text) => {
    expect(parseIsoInstant(text)).toBeUndefined();
  });
});
