import { describe, expect, it } from 'vitest';
import { parseTimerSchedule } from './schedule.js';
import type { ScheduleStatus } from './scheduleStatusStore.js';
import { advanceStatus, decideStartup, NEVER, toTimerInput } from './startup.js';

const everyMinute = parseTimerSchedule('0 * * * * *');
const T = Date.parse('2024-01-01T10:00:30.000Z');
const stored = (next: number, schedule = everyMinute.expression): ScheduleStatus => ({
  schedule,
  last: next - 60_000,
  next,
  lastUpdated: next - 59_000,
});

describe('decideStartup', () => {
  it.each([
    [
      'first start, monitored',
      { stored: undefined, useMonitor: true, runOnStartup: false },
      { kind: 'none' },
      Date.parse('2024-01-01T10:01:00Z'),
    ],
    [
      'first start, runOnStartup',
      { stored: undefined, useMonitor: true, runOnStartup: true },
      { kind: 'runOnStartup' },
      Date.parse('2024-01-01T10:01:00Z'),
    ],
    [
      'missed while down',
      { stored: stored(T - 20_000), useMonitor: true, runOnStartup: true },
      { kind: 'pastDue', occurrence: T - 20_000 },
      T - 20_000,
    ],
    ['not yet due', { stored: stored(T + 10_000), useMonitor: true, runOnStartup: false }, { kind: 'none' }, T + 10_000],
    [
      'unmonitored ignores the store',
      { stored: undefined, useMonitor: false, runOnStartup: false },
      { kind: 'none' },
      Date.parse('2024-01-01T10:01:00Z'),
    ],
  ])('%s', (_, input, action, next) => {
    const result = decideStartup({ schedule: everyMinute, now: T, ...input });
    expect(result.action).toEqual(action);
    expect(result.status.next).toBe(next);
  });

  it('recomputes next from lastUpdated when the schedule changed', () => {
    const old = stored(T + 3_600_000, '0 0 * * * *');
    const result = decideStartup({
      schedule: everyMinute,
      stored: { ...old, lastUpdated: T - 95_000 },
      useMonitor: true,
      runOnStartup: false,
      now: T,
    });
    expect(result).toEqual({
      action: { kind: 'pastDue', occurrence: Date.parse('2024-01-01T09:59:00.000Z') },
      status: { schedule: everyMinute.expression, last: old.last, next: Date.parse('2024-01-01T09:59:00.000Z'), lastUpdated: T - 95_000 },
    });
  });
});

describe('advanceStatus and toTimerInput', () => {
  it('moves last to the occurrence and next past the finish time', () => {
    expect(advanceStatus(everyMinute, T - 30_000, T + 65_000)).toEqual({
      schedule: everyMinute.expression,
      last: T - 30_000,
      next: Date.parse('2024-01-01T10:02:00.000Z'),
      lastUpdated: T + 65_000,
    });
  });

  it('builds the camel-cased TimerInfo, with DateTime.MinValue before the first occurrence', () => {
    expect(toTimerInput({ schedule: 'x', last: undefined, next: T, lastUpdated: T - 1000 }, true)).toEqual({
      isPastDue: true,
      schedule: { adjustForDST: true },
      scheduleStatus: { last: NEVER, next: '2024-01-01T10:00:30.000Z', lastUpdated: '2024-01-01T10:00:29.000Z' },
    });
  });
});
