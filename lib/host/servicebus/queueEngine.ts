import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { KeyedListeners } from './keyedListeners.js';
import { encodeMessage, toDeadLetteredMessage, toReceivedMessage, type EncodedMessage } from './messageCodec.js';
import { prepareQueueStatements, type DeadLetterListRow, type QueueStatements } from './queueStatements.js';
import { createQueueSchema } from './schema.js';
import {
  DEAD_LETTER_REASONS,
  type AbandonOptions,
  type DeadLetteredMessage,
  type DeadLetterOptions,
  type OutboundMessage,
  type CorrelationCounts,
  type QueueCounts,
  type QueueEngineOptions,
  type ReceivedMessage,
  type ReceiveOptions,
  type SendResult,
  type SettleBatch,
  type SettleResult,
} from './types.js';
import { nonEmptyString, wholeNumberOption } from './validation.js';

/**
 * Service Bus queues on SQLite with peek-lock semantics. Every method is synchronous and runs in one transaction
 * (a savepoint when called inside the caller's `db.transaction`). See README.md for the semantics.
 */
export class SqliteQueueEngine {
  readonly now: () => number;
  readonly lockDurationMs: number;
  readonly maxDeliveryCount: number;
  readonly duplicateDetectionWindowMs: number;
  readonly priorityAgingMs: number;
  private readonly maxDeliveryCountByQueue: ReadonlyMap<string, number>;
  private readonly sql: QueueStatements;
  private readonly listeners = new KeyedListeners();
  private lastDedupPruneAt = Number.NEGATIVE_INFINITY;
  private readonly sendTx: (queue: string, messages: EncodedMessage[]) => SendResult & { visible: number };
  private readonly receiveTx: (queue: string, max: number, lockMs: number) => ReceivedMessage[];
  private readonly settleTx: (batch: SettleBatch, woken: Set<string>) => SettleResult;
  private readonly eachTokenTx: (tokens: string[], apply: (token: string) => number) => number;
  private readonly replayTx: (rows: DeadLetterListRow[]) => number;
  private readonly deadLetterTx: (
    queue: string,
    rows: Array<{ m: { reason: string; description: string; deliveryCount?: number }; e: EncodedMessage }>,
  ) => number;

  constructor(db: Database.Database, options: QueueEngineOptions = {}) {
    this.now = options.now ?? Date.now;
    this.lockDurationMs = wholeNumberOption('lockDurationMs', options.lockDurationMs, 60_000);
    this.maxDeliveryCount = wholeNumberOption('maxDeliveryCount', options.maxDeliveryCount, 10);
    this.maxDeliveryCountByQueue = new Map(
      Object.entries(options.maxDeliveryCountByQueue ?? {}).map(([queue, n]) => [
        queue,
        wholeNumberOption(`maxDeliveryCount of queue "${queue}"`, n, 10),
      ]),
    );
    this.duplicateDetectionWindowMs = wholeNumberOption('duplicateDetectionWindowMs', options.duplicateDetectionWindowMs, 600_000, 0);
    this.priorityAgingMs = wholeNumberOption('priorityAgingMs', options.priorityAgingMs, 600_000, 0);
    createQueueSchema(db);
    this.sql = prepareQueueStatements(db);
    this.deadLetterTx = db.transaction(
      (queue: string, rows: Array<{ m: { reason: string; description: string; deliveryCount?: number }; e: EncodedMessage }>) => {
        const now = this.now();
        let n = 0;
        for (const { m, e } of rows) {
          if (this.sql.deadLetterIdExists.get(queue, e.messageId)) continue;
          const seq = Number(
            this.sql.insert.run(
              queue,
              e.messageId,
              e.body,
              e.bodyKind,
              e.correlationId,
              e.subject,
              e.appProps,
              now,
              null,
              now,
              e.priority,
              this.rankAt(now, e.priority),
            ).lastInsertRowid,
          );
          if (m.deliveryCount !== undefined) this.sql.setDeliveryCount.run(m.deliveryCount, seq);
          this.moveToDeadLetters(seq, now, m.reason, m.description);
          n++;
        }
        return n;
      },
    );
    this.sendTx = db.transaction((queue: string, messages: EncodedMessage[]) => this.sendRows(queue, messages));
    this.receiveTx = db.transaction((queue: string, max: number, lockMs: number) => this.lockRows(queue, max, lockMs));
    this.settleTx = db.transaction((batch: SettleBatch, woken: Set<string>) => this.settleRows(batch, woken));
    this.eachTokenTx = db.transaction((tokens: string[], apply: (token: string) => number) => {
      let matched = 0;
      for (const token of tokens) matched += apply(token);
      return matched;
    });
    this.replayTx = db.transaction((rows: DeadLetterListRow[]) => this.replayRows(rows));
  }

  /** Enqueues messages in one transaction; a messageId seen on this queue within the window is dropped. */
  send(queueName: string, messages: OutboundMessage[]): SendResult {
    nonEmptyString('queueName', queueName);
    const encoded = messages.map(encodeMessage);
    if (encoded.length === 0) return { accepted: 0, duplicates: 0 };
    const { accepted, duplicates, visible } = this.sendTx(queueName, encoded);
    if (visible > 0) this.listeners.emit(queueName);
    return { accepted, duplicates };
  }

  /**
   * Locks up to `maxMessages` visible messages (one transaction) and returns them: in rank order (the enqueue time
   * moved earlier by priority × priorityAgingMs), then sequence order; with equal priorities, sequence order.
   */
  receive(queueName: string, options: ReceiveOptions): ReceivedMessage[] {
    const max = wholeNumberOption('maxMessages', options.maxMessages, 1, 0);
    const lockMs = wholeNumberOption('lockDurationMs', options.lockDurationMs, this.lockDurationMs);
    if (max === 0) return [];
    return this.receiveTx(queueName, max, lockMs);
  }

  /** Completes and abandons in one transaction (what the trigger host uses to settle in batches). */
  settle(batch: SettleBatch): SettleResult {
    const woken = new Set<string>();
    const result = this.settleTx(batch, woken);
    this.emit(woken);
    return result;
  }

  /** Deletes the locked messages; returns how many tokens matched. */
  complete(lockTokens: string[]): number {
    return this.settle({ complete: lockTokens }).completed;
  }

  /**
   * Makes the messages visible again at once (the delivery already counted; at maxDeliveryCount they are
   * dead-lettered instead). With `countDelivery: false` the delivery is taken back. Returns tokens matched.
   */
  abandon(lockTokens: string[], options: AbandonOptions = {}): number {
    if (options.countDelivery === false) {
      const now = this.now();
      const woken = new Set<string>();
      const released = this.eachTokenTx(lockTokens, (token) => {
        const row = this.sql.releaseByLock.get(now, token);
        if (row) woken.add(row.queue);
        return row ? 1 : 0;
      });
      this.emit(woken);
      return released;
    }
    const result = this.settle({ abandon: lockTokens.map((lockToken) => ({ lockToken, reason: options.reason })) });
    return result.abandoned + result.deadLettered;
  }

  /** Moves the locked messages to the dead-letter sub-queue; returns tokens matched. */
  deadLetter(lockTokens: string[], options: DeadLetterOptions): number {
    const now = this.now();
    return this.eachTokenTx(lockTokens, (token) => {
      const row = this.sql.selectByLock.get(token);
      if (!row) return 0;
      this.moveToDeadLetters(row.seq, now, options.reason, options.description);
      return 1;
    });
  }

  /** Extends the locks to now + lock duration and returns that time; tokens that match nothing are ignored. */
  renewLock(lockTokens: string[], options: { lockDurationMs?: number } = {}): Date {
    const lockMs = wholeNumberOption('lockDurationMs', options.lockDurationMs, this.lockDurationMs);
    const lockedUntil = this.now() + lockMs;
    this.eachTokenTx(lockTokens, (token) => this.sql.renewByLock.run(lockedUntil, token).changes);
    return new Date(lockedUntil);
  }

  /**
   * Makes every locked message of the queue visible now, its delivery still counted. For a process that owns the
   * database and just started: locks left by a crashed process belong to nobody, so their messages need not wait
   * for the locks to expire. Released messages are marked: `receive` hands each out alone from then on (crash
   * isolation), so repeated crashes count against the message that causes them, not against a whole batch of healthy
   * ones that never got to finish. Returns how many were released.
   */
  releaseLocks(queueName: string): number {
    const now = this.now();
    const released = this.sql.releaseQueueLocks.run(now, queueName, now).changes;
    if (released > 0) this.listeners.emit(queueName);
    return released;
  }

  listDeadLetters(queueName: string, options: { limit?: number; offset?: number } = {}): DeadLetteredMessage[] {
    const limit = wholeNumberOption('limit', options.limit, 100);
    const offset = wholeNumberOption('offset', options.offset, 0, 0);
    return this.sql.listDeadLetters.all(queueName, limit, offset).map(toDeadLetteredMessage);
  }

  /**
   * Resends dead-lettered messages (all of the queue's, or those with the given messageIds) as new messages:
   * same messageId and content, delivery count 0, new sequence number, no TTL. Bypasses duplicate detection.
   */
  replayDeadLetters(queueName: string, options: { messageIds?: string[] } = {}): number {
    const rows = options.messageIds
      ? this.sql.selectDeadLettersById.all(queueName, JSON.stringify(options.messageIds))
      : this.sql.selectAllDeadLetters.all(queueName);
    const replayed = rows.length === 0 ? 0 : this.replayTx(rows);
    if (replayed > 0) this.listeners.emit(queueName);
    return replayed;
  }

  /**
   * Puts copies of messages straight into the dead-letter sub-queue with the caller's reason: what a consumer does
   * with a message it found unprocessable (poison) while the host completes the delivered original. A message
   * whose id is already dead-lettered on the queue is skipped, so a redelivered poison message is recorded once.
   * Returns how many were dead-lettered.
   */
  deadLetterMessages(
    queueName: string,
    messages: ReadonlyArray<OutboundMessage & { reason: string; description: string; deliveryCount?: number }>,
  ): number {
    const encoded = messages.map((m) => ({ m, e: encodeMessage(m) }));
    return this.deadLetterTx(queueName, encoded);
  }

  /** Messages and dead letters of one correlation id (a run) on a queue: waiting (visible or locked), scheduled, dead-lettered, and the last dead letter's reason. */
  correlationCounts(queueName: string, correlationId: string): CorrelationCounts {
    const now = this.now();
    const live = this.sql.countByCorrelation.get(now, now, queueName, correlationId);
    const dead = this.sql.deadLettersByCorrelation.get(queueName, correlationId);
    const last = dead && dead.n > 0 ? this.sql.lastDeadLetterByCorrelation.get(queueName, correlationId) : undefined;
    return {
      waiting: live?.visible ?? 0,
      scheduled: live?.scheduled ?? 0,
      deadLettered: dead?.n ?? 0,
      ...(last ? { lastDeadLetter: { reason: last.reason, description: last.description, at: new Date(last.dead_lettered_at) } } : {}),
    };
  }

  counts(queueName: string): QueueCounts {
    const now = this.now();
    const byAvailability = this.sql.countByAvailability.get(now, now, queueName);
    const locked = this.sql.countLocked.get(queueName, now)?.n ?? 0;
    const invisible = byAvailability?.invisible ?? 0;
    return {
      active: byAvailability?.visible ?? 0,
      scheduled: invisible - locked,
      locked,
      deadLettered: this.sql.countDeadLetters.get(queueName)?.n ?? 0,
    };
  }

  /** Calls `listener` after messages become visible on the queue in this process (send, abandon, replay). */
  onMessagesAvailable(queueName: string, listener: () => void): () => void {
    return this.listeners.on(queueName, listener);
  }

  private sendRows(queue: string, messages: EncodedMessage[]): SendResult & { visible: number } {
    const now = this.now();
    const window = this.duplicateDetectionWindowMs;
    const cutoff = now - window;
    if (window > 0 && now - this.lastDedupPruneAt >= Math.min(window, 60_000)) {
      this.sql.pruneMessageIds.run(cutoff);
      this.lastDedupPruneAt = now;
    }
    let accepted = 0;
    let visible = 0;
    for (const m of messages) {
      if (window > 0 && m.checkDuplicate && this.sql.recordMessageId.run(queue, m.messageId, now, cutoff).changes === 0) {
        continue;
      }
      const enqueuedAt = m.scheduledAt !== undefined && m.scheduledAt > now ? m.scheduledAt : now;
      const expiresAt = m.timeToLiveMs === undefined ? null : enqueuedAt + m.timeToLiveMs;
      this.sql.insert.run(
        queue,
        m.messageId,
        m.body,
        m.bodyKind,
        m.correlationId,
        m.subject,
        m.appProps,
        enqueuedAt,
        expiresAt,
        enqueuedAt,
        m.priority,
        this.rankAt(enqueuedAt, m.priority),
      );
      accepted += 1;
      if (enqueuedAt === now) visible += 1;
    }
    return { accepted, duplicates: messages.length - accepted, visible };
  }

  private lockRows(queue: string, max: number, lockMs: number): ReceivedMessage[] {
    const now = this.now();
    const lockedUntil = now + lockMs;
    const received: ReceivedMessage[] = [];
    for (;;) {
      const wanted = max - received.length;
      const rows = this.sql.selectAvailable.all(queue, now, wanted);
      for (const row of rows) {
        if (row.expires_at !== null && row.expires_at <= now) {
          const at = new Date(row.expires_at).toISOString();
          this.moveToDeadLetters(row.seq, now, DEAD_LETTER_REASONS.ttlExpired, `Message expired at ${at} before it was consumed.`);
        } else if (row.delivery_count >= this.maxDeliveryCountOf(queue)) {
          this.deadLetterExhausted(row.seq, row.delivery_count, row.last_error, now);
        } else if (row.released_after_crash) {
          // crash isolation: a message released after a crash comes alone, and a batch stops before one
          if (received.length > 0) return received;
          const lockToken = randomUUID();
          this.sql.lock.run(lockToken, lockedUntil, row.seq);
          return [{ ...toReceivedMessage(row, { lockToken, lockedUntil }), releasedAfterCrash: true }];
        } else {
          const lockToken = randomUUID();
          this.sql.lock.run(lockToken, lockedUntil, row.seq);
          received.push(toReceivedMessage(row, { lockToken, lockedUntil }));
        }
      }
      // Rows dead-lettered above left room: look again unless the queue had nothing more.
      if (rows.length < wanted || received.length === max) return received;
    }
  }

  private settleRows(batch: SettleBatch, woken: Set<string>): SettleResult {
    const now = this.now();
    const result: SettleResult = { completed: 0, abandoned: 0, deadLettered: 0, lockLost: 0 };
    for (const token of batch.complete ?? []) {
      if (this.sql.completeByLock.run(token).changes === 1) result.completed += 1;
      else result.lockLost += 1;
    }
    for (const { lockToken, reason } of batch.abandon ?? []) {
      const row = this.sql.selectByLock.get(lockToken);
      if (!row) {
        result.lockLost += 1;
      } else if (row.delivery_count >= this.maxDeliveryCountOf(row.queue)) {
        this.deadLetterExhausted(row.seq, row.delivery_count, reason ?? row.last_error, now);
        result.deadLettered += 1;
      } else {
        this.sql.abandon.run(now, reason ?? null, row.seq);
        result.abandoned += 1;
        woken.add(row.queue);
      }
    }
    return result;
  }

  /** Deliveries a message of `queue` gets before it is dead-lettered. */
  maxDeliveryCountOf(queue: string): number {
    return this.maxDeliveryCountByQueue.get(queue) ?? this.maxDeliveryCount;
  }

  private deadLetterExhausted(seq: number, deliveries: number, lastError: string | null, now: number): void {
    const description =
      `Message could not be consumed after ${deliveries} delivery attempts.` + (lastError ? ` Last error: ${lastError}` : '');
    this.moveToDeadLetters(seq, now, DEAD_LETTER_REASONS.maxDeliveryCountExceeded, description);
  }

  private moveToDeadLetters(seq: number, now: number, reason: string, description: string): void {
    this.sql.copyToDeadLetters.run(now, reason, description, seq);
    this.sql.deleteBySeq.run(seq);
  }

  /**
   * Each copy carries the dead letter's reason and description in the application properties `DeadLetterReason` and
   * `DeadLetterErrorDescription` (where Service Bus keeps them on a dead-lettered message), so a copy that is
   * dead-lettered again shows what it failed with before: `evalp dlq replay` stops on a repeat instead of looping.
   */
  private replayRows(rows: DeadLetterListRow[]): number {
    const now = this.now();
    for (const r of rows) {
      const props = {
        ...(r.app_props ? (JSON.parse(r.app_props) as Record<string, unknown>) : {}),
        DeadLetterReason: r.reason,
        DeadLetterErrorDescription: r.description,
      };
      this.sql.insert.run(
        r.queue,
        r.message_id,
        r.body,
        r.body_kind,
        r.correlation_id,
        r.subject,
        JSON.stringify(props),
        now,
        null,
        now,
        r.priority,
        this.rankAt(now, r.priority),
      );
      this.sql.deleteDeadLetter.run(r.seq);
    }
    return rows.length;
  }

  /** The receive rank of a message enqueued at `enqueuedAt`: priority p counts as p × priorityAgingMs of waiting. */
  private rankAt(enqueuedAt: number, priority: number): number {
    return enqueuedAt - priority * this.priorityAgingMs;
  }

  private emit(queues: Set<string>): void {
    for (const queue of queues) this.listeners.emit(queue);
  }
}
