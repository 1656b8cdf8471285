/**
 * Runs one episode of one instance: read its visible inbox, replay the orchestrator over history + those events,
 * decide, commit in one transaction. Keeps the histories of recently active instances in memory so that an episode
 * does not re-read and re-parse the whole history (the database stays the source of truth: the cache is dropped
 * whenever a commit fails or the instance changes execution).
 */
import { format } from 'node:util';
import type { FunctionRegistration } from '../registration.js';
import { decideEpisode } from './episode.js';
import { historyEvent, type HistoryEvent } from './historyEvents.js';
import type { HubLogger } from './hubLogger.js';
import { replayOrchestration, type ReplayOutcome } from './replay.js';
import { isTerminal, parseJsonText, type InstanceRecord, type RuntimeStatus } from './status.js';
import type { TaskHubStore } from './store.js';

export interface EpisodeRunnerOptions {
  now: () => number;
  logger: HubLogger;
  maxEventsPerEpisode: number;
  maxCachedHistories: number;
}

export interface EpisodeResult {
  /** The instance's status after the episode; undefined when nothing was replayed or the commit was discarded. */
  status: RuntimeStatus | undefined;
  /** True when the episode queued new work (activities, timers, children, a next generation, a parent's event). */
  scheduled: boolean;
}

const LOG_LEVELS: Record<string, 'debug' | 'information' | 'warning' | 'error'> = {
  trace: 'debug',
  debug: 'debug',
  information: 'information',
  warning: 'warning',
  error: 'error',
  critical: 'error',
};

export class EpisodeRunner {
  readonly #store: TaskHubStore;
  readonly #orchestrators: ReadonlyMap<string, FunctionRegistration>;
  readonly #options: EpisodeRunnerOptions;
  readonly #histories = new Map<string, { executionId: string; events: HistoryEvent[] }>();
  #episodes = 0;

  constructor(store: TaskHubStore, orchestrators: ReadonlyMap<string, FunctionRegistration>, options: EpisodeRunnerOptions) {
    this.#store = store;
    this.#orchestrators = orchestrators;
    this.#options = options;
  }

  /** Episodes replayed so far. */
  get episodes(): number {
    return this.#episodes;
  }

  forget(instanceId: string): void {
    this.#histories.delete(instanceId);
  }

  async run(instanceId: string): Promise<EpisodeResult> {
    const now = this.#options.now();
    const inbox = this.#store.readInbox(instanceId, now, this.#options.maxEventsPerEpisode);
    const consumed = inbox.map((entry) => entry.id);
    const instance = this.#store.getInstance(instanceId);
    const current =
      instance && !isTerminal(instance.status)
        ? inbox.filter((entry) => entry.executionId === null || entry.executionId === instance.executionId)
        : [];
    if (!instance || current.length === 0) {
      if (consumed.length > 0) this.#store.dropInbox(consumed);
      this.forget(instanceId);
      return { status: undefined, scheduled: false };
    }
    const at = new Date(now);
    const past = this.#history(instance);
    const fresh = [historyEvent.orchestratorStarted(at), ...current.map((entry) => entry.event)];
    const replay = await this.#replay(instance, [...past, ...fresh]);
    const decision = decideEpisode({ instanceId, name: instance.name, past, fresh, now: at }, replay);
    let status: RuntimeStatus | undefined;
    try {
      status = this.#store.commitEpisode(instance, consumed, decision, now);
    } catch (error) {
      this.forget(instanceId);
      throw error;
    }
    this.#episodes += 1;
    if (status === 'Running') {
      for (const event of decision.append) event.IsPlayed = true;
      this.#remember(instanceId, instance.executionId, [...past, ...decision.append]);
    } else {
      this.forget(instanceId);
    }
    const notifiedParent = status !== undefined && isTerminal(status) && instance.parentInstanceId !== null;
    const scheduled =
      decision.activities.length + decision.timers.length + decision.children.length > 0 || status === 'ContinuedAsNew' || notifiedParent;
    return { status, scheduled };
  }

  async #replay(instance: InstanceRecord, history: HistoryEvent[]): Promise<ReplayOutcome> {
    const registration = this.#orchestrators.get(instance.name);
    if (!registration) {
      const message = `no orchestrator function named '${instance.name}' is registered in this function app.`;
      return { kind: 'failed', message, customStatus: undefined };
    }
    try {
      return await replayOrchestration(registration.callback, {
        instanceId: instance.instanceId,
        name: instance.name,
        history,
        input: parseJsonText(instance.inputJson),
        parentInstanceId: instance.parentInstanceId ?? undefined,
        log: (level, ...args) =>
          this.#options.logger.log(LOG_LEVELS[level] ?? 'information', format(...args), {
            instanceId: instance.instanceId,
            functionName: instance.name,
          }),
      });
    } catch (error) {
      // The replay engine itself could not run (library mismatch): deterministic, so fail rather than retry forever.
      const message = error instanceof Error ? error.message : String(error);
      this.#options.logger.log('error', message, { instanceId: instance.instanceId });
      return { kind: 'failed', message, customStatus: undefined };
    }
  }

  #history(instance: InstanceRecord): HistoryEvent[] {
    const cached = this.#histories.get(instance.instanceId);
    if (cached && cached.executionId === instance.executionId) return cached.events;
    return this.#store.loadHistory(instance.instanceId);
  }

  #remember(instanceId: string, executionId: string, events: HistoryEvent[]): void {
    this.#histories.delete(instanceId);
    this.#histories.set(instanceId, { executionId, events });
    if (this.#histories.size > this.#options.maxCachedHistories) {
      const oldest = this.#histories.keys().next().value;
      if (oldest !== undefined) this.#histories.delete(oldest);
    }
  }
}
