import type { Timer } from '@azure/functions';
import type { TimerSchedule } from './schedule.js';
import type { ScheduleStatus } from './scheduleStatusStore.js';

/** What a timer does when the host starts (Azure's TimerListener.StartAsync): past-due wins over runOnStartup. */
export type StartupAction = { kind: 'pastDue'; occurrence: number } | { kind: 'runOnStartup' } | { kind: 'none' };

export interface StartupInput {
  schedule: TimerSchedule;
  /** The persisted status (monitored timers only). */
  stored: ScheduleStatus | undefined;
  useMonitor: boolean;
  runOnStartup: boolean;
  now: number;
}

/**
 * Decides the startup action and the status to continue from. A monitored timer whose stored `next` lies in the
 * past missed an occurrence while the host was down: it fires at once with isPastDue. A changed schedule
 * recomputes `next` from the stored `lastUpdated`, as Azure's schedule monitor does.
 */
export function decideStartup(input: StartupInput): { action: StartupAction; status: ScheduleStatus } {
  const { schedule, stored, useMonitor, runOnStartup, now } = input;
  const fresh: ScheduleStatus = {
    schedule: schedule.expression,
    last: undefined,
    next: schedule.next(new Date(now)).getTime(),
    lastUpdated: now,
  };
  if (useMonitor && stored) {
    const status =
      stored.schedule === schedule.expression
        ? stored
        : { ...stored, schedule: schedule.expression, next: schedule.next(new Date(stored.lastUpdated)).getTime() };
    if (now > status.next) return { action: { kind: 'pastDue', occurrence: status.next }, status };
    return { action: runOnStartup ? { kind: 'runOnStartup' } : { kind: 'none' }, status };
  }
  return { action: runOnStartup ? { kind: 'runOnStartup' } : { kind: 'none' }, status: fresh };
}

/** The status after an invocation of `occurrence` that finished at `now`. */
export function advanceStatus(schedule: TimerSchedule, occurrence: number, now: number): ScheduleStatus {
  return {
    schedule: schedule.expression,
    last: occurrence,
    next: schedule.next(new Date(Math.max(now, occurrence))).getTime(),
    lastUpdated: now,
  };
}

/** Azure's DateTime.MinValue, reported as `last` before a timer's first occurrence. */
export const NEVER = '0001-01-01T00:00:00.000Z';

/** The Timer object the handler receives (camel-cased TimerInfo: the status as it was before this invocation). */
export function toTimerInput(status: ScheduleStatus, isPastDue: boolean): Timer {
  return {
    isPastDue,
    schedule: { adjustForDST: true },
    scheduleStatus: {
      last: status.last === undefined ? NEVER : new Date(status.last).toISOString(),
      next: new Date(status.next).toISOString(),
      lastUpdated: new Date(status.lastUpdated).toISOString(),
    },
  };
}
