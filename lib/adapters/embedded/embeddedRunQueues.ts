import type { SqliteQueueEngine } from '../../host/index.js';
import type { PoisonMessage, RunQueueCountOptions, RunQueueCounts, RunQueuesPort } from '../../ports/index.js';

/**
 * How long a run's counts are reused, as a multiple of what counting them cost: counting scans the run's messages
 * (one per case: 400,000 rows while a large run is enqueued), and a run page polled four times a second would
 * otherwise spend most of a core counting. Cheap counts (small queues) are effectively never reused.
 */
export const COUNT_REUSE_FACTOR = 20;

/** RunQueuesPort on the embedded SQLite queues (messages carry the run id as their correlation id). */
export class EmbeddedRunQueues implements RunQueuesPort {
  private readonly recent = new Map<string, { until: number; counts: RunQueueCounts }>();

  constructor(
    private readonly engine: SqliteQueueEngine,
    /** a monotonic clock in ms (tests) */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The counts, reused for COUNT_REUSE_FACTOR times what they cost to count (at most ~5% of a core per polled run). */
  async runQueueCounts(runId: string, queueNames: readonly string[], options: RunQueueCountOptions = {}): Promise<RunQueueCounts> {
    const key = `${runId}\u0000${queueNames.join('\u0000')}`;
    const started = this.now();
    const hit = this.recent.get(key);
    if (hit && hit.until > started && !options.fresh) return structuredClone(hit.counts);
    const counts = this.count(runId, queueNames);
    const cost = this.now() - started;
    if (this.recent.size > 1000) this.recent.clear();
    this.recent.set(key, { until: started + cost * (COUNT_REUSE_FACTOR + 1), counts: structuredClone(counts) });
    return counts;
  }

  private count(runId: string, queueNames: readonly string[]): RunQueueCounts {
    const counts: RunQueueCounts = { waiting: 0, scheduled: 0, dead_lettered: 0, last_dead_letter: null };
    for (const queue of queueNames) {
      const c = this.engine.correlationCounts(queue, runId);
      counts.waiting += c.waiting;
      counts.scheduled += c.scheduled;
      counts.dead_lettered += c.deadLettered;
      if (c.lastDeadLetter && (!counts.last_dead_letter || c.lastDeadLetter.at.toISOString() > counts.last_dead_letter.at)) {
        counts.last_dead_letter = {
          reason: c.lastDeadLetter.reason,
          description: c.lastDeadLetter.description,
          at: c.lastDeadLetter.at.toISOString(),
        };
      }
    }
    return counts;
  }

  async deadLetterMessages(queueName: string, messages: readonly PoisonMessage[]): Promise<number> {
    if (messages.length === 0) return 0;
    return this.engine.deadLetterMessages(
      queueName,
      messages.map((m) => ({
        messageId: m.messageId,
        body: m.body,
        ...(m.correlationId ? { correlationId: m.correlationId } : {}),
        ...(m.applicationProperties ? { applicationProperties: m.applicationProperties } : {}),
        reason: m.reason,
        description: m.description,
        ...(m.deliveryCount !== undefined ? { deliveryCount: m.deliveryCount } : {}),
      })),
    );
  }
}
