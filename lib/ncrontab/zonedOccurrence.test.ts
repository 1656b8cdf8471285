import { describe, expect, it } from 'vitest';
import { parseNcrontab } from './ncrontab.js';
import { nextZonedOccurrence, zoneOffsetMs } from './zonedOccurrence.js';

const LA = 'America/Los_Angeles'; // 2024: clocks spring forward 2024-03-10 10:00Z (02:00 PST -> 03:00 PDT), fall back 2024-11-03 09:00Z (02:00 PDT -> 01:00 PST)

function occurrences(expression: string, timeZone: string, after: string, count: number): string[] {
  const expr = parseNcrontab(expression);
  const out: string[] = [];
  let cursor = new Date(after);
  for (let i = 0; i < count; i += 1) {
    cursor = nextZonedOccurrence(expr, timeZone, cursor) as Date;
    out.push(cursor.toISOString());
  }
  return out;
}

describe('zoneOffsetMs', () => {
  it.each([
    ['UTC', '2024-07-01T00:00:00Z', 0],
    [LA, '2024-01-15T12:00:00Z', -8],
    [LA, '2024-07-15T12:00:00Z', -7],
    ['Europe/Paris', '2024-01-15T12:00:00Z', 1],
    ['Asia/Kolkata', '2024-01-15T12:00:00Z', 5.5],
  ])('%s at %s is %s h', (zone, instant, hours) => {
    expect(zoneOffsetMs(zone, Date.parse(instant))).toBe(hours * 3_600_000);
  });
});

describe('nextZonedOccurrence: Azure timer rules across daylight-saving changes', () => {
  it.each<[string, string, string, string, string[]]>([
    ['wall-clock fields', '0 0 9 * * *', 'Europe/Paris', '2024-01-01T00:00:00Z', ['2024-01-01T08:00:00.000Z', '2024-01-02T08:00:00.000Z']],
    [
      'the day fields are wall-clock too (Friday 13th in Paris starts Thursday 23:00Z)',
      '0 0 0 13 * FRI',
      'Europe/Paris',
      '2024-01-01T00:00:00Z',
      ['2024-09-12T22:00:00.000Z', '2024-12-12T23:00:00.000Z'],
    ],
    [
      'a time skipped by spring-forward fires shifted by the gap (02:30 -> 03:30 PDT)',
      '0 30 2 * * *',
      LA,
      '2024-03-09T10:30:00Z',
      ['2024-03-10T10:30:00.000Z', '2024-03-11T09:30:00.000Z'],
    ],
    [
      'an interval schedule goes on through the gap',
      '0 0,30 * * * *',
      LA,
      '2024-03-10T09:30:00Z',
      ['2024-03-10T10:00:00.000Z', '2024-03-10T10:30:00.000Z', '2024-03-10T11:00:00.000Z'],
    ],
    [
      'an interval schedule fires in both passes of the repeated hour',
      '0 0 * * * *',
      LA,
      '2024-11-03T06:30:00Z',
      ['2024-11-03T07:00:00.000Z', '2024-11-03T08:00:00.000Z', '2024-11-03T09:00:00.000Z', '2024-11-03T10:00:00.000Z'],
    ],
    [
      'a point-in-time schedule fires once in the repeated hour (the first pass)',
      '0 30 1 * * *',
      LA,
      '2024-11-02T09:00:00Z',
      ['2024-11-03T08:30:00.000Z', '2024-11-04T09:30:00.000Z'],
    ],
    [
      'started in the second pass, a point-in-time schedule waits for the next day',
      '0 30 1 * * *',
      LA,
      '2024-11-03T09:29:00Z',
      ['2024-11-04T09:30:00.000Z'],
    ],
  ])('%s', (_, expression, zone, after, expected) => {
    expect(occurrences(expression, zone, after, expected.length)).toEqual(expected);
  });

  it('is undefined for an expression that never fires', () => {
    expect(nextZonedOccurrence(parseNcrontab('0 0 0 30 2 *'), LA, new Date('2024-01-01T00:00:00Z'))).toBeUndefined();
  });
});
