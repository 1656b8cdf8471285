import { describe, expect, it } from 'vitest';
import { InvalidScheduleError, parseTimerSchedule } from './schedule.js';

const at = (iso: string) => new Date(iso);

describe('parseTimerSchedule', () => {
  it.each([
    ['*/1 * * * * *', '2024-01-01T00:00:00.500Z', '2024-01-01T00:00:01.000Z'],
    ['* * * * * *', '2024-01-01T00:00:01.000Z', '2024-01-01T00:00:02.000Z'],
    ['0 */5 * * * *', '2024-01-01T00:01:00.000Z', '2024-01-01T00:05:00.000Z'],
    ['0 30 9 * * 1-5', '2024-01-06T00:00:00.000Z', '2024-01-08T09:30:00.000Z'],
    ['0 0 2 * * *', '2024-01-01T02:00:00.000Z', '2024-01-02T02:00:00.000Z'],
    ['0 0 0 1 JAN *', '2024-06-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'],
    // NCRONTAB: day 13 AND Friday (cron-parser alone would OR them and answer 2024-01-05)
    ['0 0 12 13 * 5', '2024-01-01T00:00:00.000Z', '2024-09-13T12:00:00.000Z'],
    ['0 0 12 13 * FRI', '2024-01-01T00:00:00.000Z', '2024-09-13T12:00:00.000Z'],
    ['00:00:05', '2024-01-01T00:00:00.250Z', '2024-01-01T00:00:05.250Z'],
    ['01:30:00', '2024-01-01T00:00:00.000Z', '2024-01-01T01:30:00.000Z'],
    ['24:00:00', '2024-01-01T00:00:00.000Z', '2024-01-25T00:00:00.000Z'],
  ])('%s after %s -> %s', (expression, after, expected) => {
    expect(parseTimerSchedule(expression).next(at(after)).toISOString()).toBe(expected);
  });

  it('refuses an unknown time zone', () => {
    expect(() => parseTimerSchedule('0 0 9 * * *', { timeZone: 'Mars/Olympus' })).toThrow(InvalidScheduleError);
  });

  it('reads the fields in the configured time zone', () => {
    const schedule = parseTimerSchedule('0 0 9 * * *', { timeZone: 'Europe/Paris' });
    expect(schedule.next(at('2024-01-01T00:00:00.000Z')).toISOString()).toBe('2024-01-01T08:00:00.000Z');
  });

  it.each([
    ['*/1 * * * * *', { kind: 'ncrontab', isSubMinute: true }],
    ['0,30 * * * * *', { kind: 'ncrontab', isSubMinute: true }],
    ['0 * * * * *', { kind: 'ncrontab', isSubMinute: false }],
    ['0 0 2 * * *', { kind: 'ncrontab', isSubMinute: false }],
    ['00:00:10', { kind: 'timespan', isSubMinute: true }],
    ['00:01:00', { kind: 'timespan', isSubMinute: false }],
  ])('%s is %j', (expression, expected) => {
    const { kind, isSubMinute } = parseTimerSchedule(expression);
    expect({ kind, isSubMinute }).toEqual(expected);
  });

  it.each([
    ['0 2 * * *', /has 5 field\(s\).*prepend the seconds, e.g. "0 0 2 \* \* \*"/],
    ['* * * * * * *', /has 7 field/],
    ['', /has 1 field/],
    ['@daily', /has 1 field/],
    ['0 0 25 * * *', /not a valid NCRONTAB expression/],
    ['0 0 0 31 2 *', /no occurrence|not a valid/],
    ['00:00:00', /longer than zero/],
    ['00:61:00', /out of range/],
    // cron-parser extras NCrontab (Azure) refuses
    ['0 0 0 * * 7', /the day-of-week field "7": 7 is outside 0-6/],
    ['0 0 0 ? * MON', /the day field "\?"/],
    ['0 0 0 L * *', /the day field "L"/],
    ['0 0 0 * * 5#3', /the day-of-week field "5#3"/],
  ])('rejects %j', (expression, message) => {
    expect(() => parseTimerSchedule(expression)).toThrow(InvalidScheduleError);
    expect(() => parseTimerSchedule(expression)).toThrow(message);
  });
});
