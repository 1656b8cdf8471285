import type { RunQueueCountOptions, RunQueueCounts, RunQueuesPort } from '../../ports/index.js';
import { idText } from './serviceBusMessages.js';
import type { SbClient, SbReceivedMessage } from './serviceBusSurface.js';

export interface ServiceBusRunQueuesOptions {
  /** messages peeked per queue and per sub-queue at most (default 10,000): beyond it the figures are lower bounds */
  maxPeek?: number;
  /** messages per peek call (default 250) */
  pageSize?: number;
  /** one peek pass serves every run's figures for this long (default 5,000 ms; 0 = peek on every call) */
  cacheMs?: number;
  /** clock (tests) */
  now?: () => number;
}

const zero = (): RunQueueCounts => ({ waiting: 0, scheduled: 0, dead_lettered: 0, last_dead_letter: null });

/**
 * Per-run queue figures on Azure Service Bus, for a run's health (GET /runs/{id}, `evalp status`) and the watchdog.
 * Service Bus has no count by correlation id, so each stage queue and its dead-letter sub-queue are peeked (a peek
 * takes no lock and changes nothing) and the messages are grouped by run (their correlation id, else the body's
 * run_id): scheduled ones (cases put off by an open circuit or delivered again after a backoff) apart from the
 * visible ones; the last dead letter in the sub-queue's order gives the last error. Peeking is bounded by `maxPeek`
 * per (sub-)queue, and one pass serves all runs for `cacheMs` (the watchdog asks for every open run in turn).
 *
 * It offers no `deadLetterMessages`: a message the Functions binding delivered can only be dead-lettered through the
 * binding's settlement actions (`sdkBinding` with @azure/functions-extensions-servicebus, not used here), so the
 * Azure workers still log malformed messages and let the binding complete them (docs/reliability.md).
 */
export class ServiceBusRunQueues implements RunQueuesPort {
  private readonly maxPeek: number;
  private readonly pageSize: number;
  private readonly cacheMs: number;
  private readonly now: () => number;
  private snapshot: { key: string; at: number; byRun: Promise<Map<string, RunQueueCounts>> } | undefined;

  constructor(
    private readonly client: SbClient,
    options: ServiceBusRunQueuesOptions = {},
  ) {
    this.maxPeek = options.maxPeek ?? 10_000;
    this.pageSize = options.pageSize ?? 250;
    this.cacheMs = options.cacheMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  async runQueueCounts(runId: string, queueNames: readonly string[], options: RunQueueCountOptions = {}): Promise<RunQueueCounts> {
    const key = queueNames.join('\n');
    const now = this.now();
    if (options.fresh || !this.snapshot || this.snapshot.key !== key || now - this.snapshot.at >= this.cacheMs) {
      const byRun = this.countAll(queueNames);
      this.snapshot = { key, at: now, byRun };
      // a failed pass is not kept
      byRun.catch(() => {
        if (this.snapshot?.byRun === byRun) this.snapshot = undefined;
      });
    }
    return { ...((await this.snapshot.byRun).get(runId) ?? zero()) };
  }

  private async countAll(queueNames: readonly string[]): Promise<Map<string, RunQueueCounts>> {
    const byRun = new Map<string, RunQueueCounts>();
    const of = (runId: string): RunQueueCounts => {
      let c = byRun.get(runId);
      if (!c) byRun.set(runId, (c = zero()));
      return c;
    };
    for (const queue of queueNames) {
      for (const m of await this.peekAll(queue, false)) {
        const runId = runOf(m);
        if (runId === undefined) continue;
        if (m.state === 'scheduled') of(runId).scheduled++;
        else of(runId).waiting++;
      }
      for (const m of await this.peekAll(queue, true)) {
        const runId = runOf(m);
        if (runId === undefined) continue;
        const c = of(runId);
        c.dead_lettered++;
        c.last_dead_letter = {
          reason: m.deadLetterReason ?? '',
          description: m.deadLetterErrorDescription ?? '',
          at: (m.enqueuedTimeUtc ?? new Date(0)).toISOString(),
        };
      }
    }
    return byRun;
  }

  private async peekAll(queue: string, deadLetter: boolean): Promise<SbReceivedMessage[]> {
    const receiver = this.client.createReceiver(queue, deadLetter ? { subQueueType: 'deadLetter' } : {});
    const out: SbReceivedMessage[] = [];
    try {
      while (out.length < this.maxPeek) {
        const page = await receiver.peekMessages(Math.min(this.pageSize, this.maxPeek - out.length));
        if (page.length === 0) break;
        out.push(...page);
      }
    } finally {
      await receiver.close();
    }
    return out;
  }
}

/** the run a message belongs to: its correlation id (every stage message carries one), else the body's run_id */
function runOf(m: SbReceivedMessage): string | undefined {
  if (m.correlationId !== undefined) return idText(m.correlationId);
  const body = m.body as { run_id?: unknown } | null;
  return typeof body === 'object' && body !== null && typeof body.run_id === 'string' ? body.run_id : undefined;
}
