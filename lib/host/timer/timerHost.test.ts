import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Timer } from '@azure/functions';
import { afterEach, describe, expect, it } from 'vitest';
import { openHostDatabase, type HostDatabase } from '../database.js';
import type { FunctionRegistration, InvokeFunction } from '../registration.js';
import { ScheduleStatusStore } from './scheduleStatusStore.js';
import { TimerTriggerHost } from './timerHost.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await pause(10);
  }
}
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDb(): { db: HostDatabase; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'timer-host-'));
  const db = openHostDatabase(dir);
  cleanups.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => void db.close(),
  );
  return { db, dir };
}

function timer(name: string, trigger: Record<string, unknown>): FunctionRegistration {
  return {
    name,
    kind: 'timerTrigger',
    trigger: { type: 'timerTrigger', direction: 'in', name: 'timer', ...trigger },
    metadata: { name, bindings: {} },
    callback: () => undefined,
  };
}

interface Fired {
  name: string;
  timer: Timer;
  at: number;
}

function recorder(behaviour: (name: string) => Promise<void> | void = () => undefined) {
  const fired: Fired[] = [];
  const invoke: InvokeFunction = async (registration, input) => {
    fired.push({ name: registration.name, timer: input as Timer, at: Date.now() });
    await behaviour(registration.name);
  };
  return { fired, invoke };
}

function startHost(db: HostDatabase, invoke: InvokeFunction, timers: FunctionRegistration[], now?: () => number) {
  const host = new TimerTriggerHost(db, invoke, now ? { now } : {});
  timers.forEach((t) => host.add(t));
  host.start();
  cleanups.push(() => host.stop());
  return host;
}

describe('TimerTriggerHost', () => {
  it('fires a six-field every-second schedule on second boundaries, not past due', async () => {
    const { db } = tempDb();
    const { fired, invoke } = recorder();
    const host = startHost(db, invoke, [timer('everySecond', { schedule: '*/1 * * * * *' })]);
    await until(() => fired.length >= 2);
    await host.stop();
    expect(fired.length).toBe(2);
    expect(Date.parse(fired[1]?.timer.scheduleStatus.next ?? '') - Date.parse(fired[0]?.timer.scheduleStatus.next ?? '')).toBe(1000);
    for (const f of fired) {
      expect(f.timer.isPastDue).toBe(false);
      expect(Date.parse(f.timer.scheduleStatus.next) % 1000).toBe(0);
      expect(f.at - Date.parse(f.timer.scheduleStatus.next)).toBeGreaterThanOrEqual(0);
      expect(f.at - Date.parse(f.timer.scheduleStatus.next)).toBeLessThan(200);
    }
    // sub-minute schedules are not monitored by default: nothing persisted
    expect(new ScheduleStatusStore(db).get('everySecond')).toBeUndefined();
  });

  it('runs a runOnStartup timer at once, then keeps its schedule', async () => {
    const { db } = tempDb();
    const { fired, invoke } = recorder();
    const started = Date.now();
    startHost(db, invoke, [timer('boot', { schedule: '0 0 0 1 1 *', runOnStartup: true })]);
    await pause(50);
    expect(fired.map((f) => [f.name, f.timer.isPastDue, f.at - started < 50])).toEqual([['boot', false, true]]);
  });

  it('persists the status of a monitored timer and fires once with isPastDue after a missed occurrence', async () => {
    const { db } = tempDb();
    const first = recorder();
    const host = startHost(db, first.invoke, [timer('monitored', { schedule: '*/1 * * * * *', useMonitor: true })]);
    await until(() => first.fired.length === 1);
    await host.stop();
    const stored = new ScheduleStatusStore(db).get('monitored');
    expect(stored).toMatchObject({ schedule: '*/1 * * * * *', last: Date.parse(first.fired[0]?.timer.scheduleStatus.next ?? '') });

    // restart "later": a clock 5 s ahead makes the stored next occurrence overdue
    const second = recorder();
    startHost(
      db,
      second.invoke,
      [timer('monitored', { schedule: '*/1 * * * * *', useMonitor: true, runOnStartup: true })],
      () => Date.now() + 5000,
    );
    await pause(50);
    expect(second.fired.map((f) => [f.timer.isPastDue, f.timer.scheduleStatus.next])).toEqual([
      [true, new Date(stored?.next ?? 0).toISOString()],
    ]);
  });

  it('keeps the schedule after a failing invocation and never overlaps one timer', async () => {
    const { db } = tempDb();
    const { fired, invoke } = recorder(async () => {
      if (fired.length > 1) return;
      await pause(1100);
      throw new Error('timer failed');
    });
    const host = startHost(db, invoke, [timer('failing', { schedule: '*/1 * * * * *', runOnStartup: true })]);
    await until(() => fired.length === 2);
    await host.stop();
    const gap = (fired[1]?.at ?? 0) - (fired[0]?.at ?? 0);
    expect(gap).toBeGreaterThanOrEqual(1100);
    expect(gap).toBeLessThan(2150);
  });

  it.each([
    [{ schedule: '0 2 * * *' }, /Timer "bad": Schedule "0 2 \* \* \*" has 5 field\(s\)/],
    [{}, /Timer "bad" has no schedule/],
  ])('rejects %j when added', (trigger, message) => {
    const { db } = tempDb();
    expect(() => new TimerTriggerHost(db, recorder().invoke).add(timer('bad', trigger))).toThrow(message);
  });
});
