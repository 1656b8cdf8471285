import type { HostDatabase } from '../database.js';
import { silentLogger, type HostLogger } from '../logger.js';
import type { FunctionRegistration, InvokeFunction } from '../registration.js';
import { parseTimerSchedule, type TimerSchedule } from './schedule.js';
import { ScheduleStatusStore, type ScheduleStatus } from './scheduleStatusStore.js';
import { advanceStatus, decideStartup, toTimerInput } from './startup.js';

export interface TimerHostOptions {
  now?: () => number;
  /** Zone for NCRONTAB fields; default 'UTC'. */
  timeZone?: string;
  logger?: HostLogger;
}

interface TimerEntry {
  registration: FunctionRegistration;
  schedule: TimerSchedule;
  useMonitor: boolean;
  runOnStartup: boolean;
  status: ScheduleStatus | undefined;
  handle: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
}

/** setTimeout's largest delay; longer waits re-arm. */
const MAX_DELAY_MS = 2_147_483_647;

/**
 * Fires timer-triggered functions on their schedules: one invocation of a timer at a time (a late finish skips
 * to the next occurrence after it), `runOnStartup`, and for monitored timers (`useMonitor`, default true unless
 * the schedule fires more than once a minute) a persisted status so that an occurrence missed while the host was
 * down fires once at start with isPastDue. A failing invocation is logged; the schedule continues.
 */
export class TimerTriggerHost {
  readonly #invoke: InvokeFunction;
  readonly #store: ScheduleStatusStore;
  readonly #now: () => number;
  readonly #timeZone: string;
  readonly #logger: HostLogger;
  readonly #entries: TimerEntry[] = [];
  #state: 'idle' | 'started' | 'stopped' = 'idle';

  constructor(db: HostDatabase, invoke: InvokeFunction, options: TimerHostOptions = {}) {
    this.#invoke = invoke;
    this.#store = new ScheduleStatusStore(db);
    this.#now = options.now ?? Date.now;
    this.#timeZone = options.timeZone ?? 'UTC';
    this.#logger = options.logger ?? silentLogger;
  }

  /** Adds a timerTrigger registration; throws (configuration error) on a schedule it cannot parse. */
  add(registration: FunctionRegistration): void {
    if (registration.kind !== 'timerTrigger') throw new Error(`Function "${registration.name}" is not timer-triggered.`);
    if (this.#state !== 'idle') throw new Error('Add timers before start().');
    const { schedule: expression, useMonitor, runOnStartup } = registration.trigger;
    if (typeof expression !== 'string') throw new Error(`Timer "${registration.name}" has no schedule.`);
    let schedule: TimerSchedule;
    try {
      schedule = parseTimerSchedule(expression, { timeZone: this.#timeZone });
    } catch (error) {
      throw new Error(`Timer "${registration.name}": ${(error as Error).message}`, { cause: error });
    }
    this.#entries.push({
      registration,
      schedule,
      useMonitor: typeof useMonitor === 'boolean' ? useMonitor : !schedule.isSubMinute,
      runOnStartup: runOnStartup === true,
      status: undefined,
      handle: undefined,
      running: undefined,
    });
  }

  start(): void {
    if (this.#state !== 'idle') return;
    this.#state = 'started';
    for (const entry of this.#entries) {
      const now = this.#now();
      const stored = entry.useMonitor ? this.#store.get(entry.registration.name) : undefined;
      const { action, status } = decideStartup({ ...entry, stored, now });
      entry.status = status;
      if (entry.useMonitor && status !== stored) this.#persist(entry);
      if (action.kind === 'pastDue') this.#run(entry, action.occurrence, true);
      else if (action.kind === 'runOnStartup') this.#run(entry, now, false);
      else this.#arm(entry);
    }
  }

  /** Stops firing; waits for running invocations up to timeoutInMs (default 10 s). */
  async stop(options: { timeoutInMs?: number } = {}): Promise<void> {
    if (this.#state === 'stopped') return;
    this.#state = 'stopped';
    for (const entry of this.#entries) clearTimeout(entry.handle);
    const running = this.#entries.flatMap((entry) => (entry.running ? [entry.running] : []));
    if (running.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(running),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, options.timeoutInMs ?? 10_000))),
    ]);
    clearTimeout(timer);
  }

  #arm(entry: TimerEntry): void {
    if (this.#state !== 'started' || !entry.status) return;
    const delay = Math.min(Math.max(0, entry.status.next - this.#now()), MAX_DELAY_MS);
    entry.handle = setTimeout(() => {
      entry.handle = undefined;
      const status = entry.status;
      if (!status || this.#state !== 'started') return;
      if (this.#now() < status.next) this.#arm(entry);
      else this.#run(entry, status.next, false);
    }, delay);
  }

  #run(entry: TimerEntry, occurrence: number, isPastDue: boolean): void {
    const status = entry.status as ScheduleStatus;
    const input = toTimerInput(status, isPastDue);
    entry.running = (async () => {
      try {
        await this.#invoke(entry.registration, input);
      } catch (error) {
        this.#logger.log('error', `Timer function "${entry.registration.name}" failed.`, { error: String(error), isPastDue });
      } finally {
        entry.status = advanceStatus(entry.schedule, occurrence, this.#now());
        if (entry.useMonitor) this.#persist(entry);
        entry.running = undefined;
        this.#arm(entry);
      }
    })();
  }

  #persist(entry: TimerEntry): void {
    if (!entry.status) return;
    try {
      this.#store.put(entry.registration.name, entry.status);
    } catch (error) {
      this.#logger.log('error', `Could not save the schedule status of "${entry.registration.name}".`, { error: String(error) });
    }
  }
}
