import type Database from 'better-sqlite3';
import type { StoredMessageRow } from './messageCodec.js';

export type MessageRow = StoredMessageRow & {
  expires_at: number | null;
  last_error: string | null;
  released_after_crash: number;
  priority: number;
};
export type DeadLetterRow = StoredMessageRow & { queue: string; priority: number };
export type DeadLetterListRow = DeadLetterRow & { dead_lettered_at: number; reason: string; description: string };
interface LockRow {
  seq: number;
  queue: string;
  delivery_count: number;
  last_error: string | null;
}

const MESSAGE_COLUMNS =
  'seq, message_id, body, body_kind, correlation_id, subject, app_props, enqueued_at, expires_at, delivery_count, last_error, released_after_crash, priority';
const DEAD_LETTER_COLUMNS =
  'seq, queue, message_id, body, body_kind, correlation_id, subject, app_props, enqueued_at, delivery_count, priority';

/** Every statement the queue engine runs, prepared once per engine. */
export function prepareQueueStatements(db: Database.Database) {
  return {
    insert: db.prepare(
      `INSERT INTO sb_messages (queue, message_id, body, body_kind, correlation_id, subject, app_props,
         enqueued_at, expires_at, available_at, priority, rank_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    /** changes = 1 when the id is new or its last sighting is outside the window; 0 = duplicate. */
    recordMessageId: db.prepare(
      `INSERT INTO sb_dedup (queue, message_id, seen_at) VALUES (?, ?, ?)
       ON CONFLICT (queue, message_id) DO UPDATE SET seen_at = excluded.seen_at WHERE sb_dedup.seen_at <= ?`,
    ),
    pruneMessageIds: db.prepare('DELETE FROM sb_dedup WHERE seen_at <= ?'),
    selectAvailable: db.prepare<[string, number, number], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM sb_messages INDEXED BY sb_messages_by_rank
       WHERE queue = ? AND available_at <= ? ORDER BY rank_at, seq LIMIT ?`,
    ),
    lock: db.prepare('UPDATE sb_messages SET lock_token = ?, available_at = ?, delivery_count = delivery_count + 1 WHERE seq = ?'),
    selectByLock: db.prepare<[string], LockRow>('SELECT seq, queue, delivery_count, last_error FROM sb_messages WHERE lock_token = ?'),
    completeByLock: db.prepare('DELETE FROM sb_messages WHERE lock_token = ?'),
    abandon: db.prepare('UPDATE sb_messages SET lock_token = NULL, available_at = ?, last_error = coalesce(?, last_error) WHERE seq = ?'),
    releaseByLock: db.prepare<[number, string], { queue: string }>(
      `UPDATE sb_messages SET lock_token = NULL, available_at = ?, delivery_count = max(delivery_count - 1, 0)
       WHERE lock_token = ? RETURNING queue`,
    ),
    renewByLock: db.prepare('UPDATE sb_messages SET available_at = ? WHERE lock_token = ?'),
    releaseQueueLocks: db.prepare(
      'UPDATE sb_messages SET lock_token = NULL, available_at = ?, released_after_crash = 1 WHERE lock_token IS NOT NULL AND queue = ? AND available_at > ?',
    ),
    copyToDeadLetters: db.prepare(
      `INSERT INTO sb_dead_letters (${DEAD_LETTER_COLUMNS}, dead_lettered_at, reason, description)
       SELECT ${DEAD_LETTER_COLUMNS}, ?, ?, ? FROM sb_messages WHERE seq = ?`,
    ),
    deleteBySeq: db.prepare('DELETE FROM sb_messages WHERE seq = ?'),
    deadLetterIdExists: db.prepare<[string, string], { n: number }>(
      'SELECT 1 AS n FROM sb_dead_letters WHERE queue = ? AND message_id = ? LIMIT 1',
    ),
    setDeliveryCount: db.prepare('UPDATE sb_messages SET delivery_count = ? WHERE seq = ?'),
    countByCorrelation: db.prepare<[number, number, string, string], { visible: number; scheduled: number }>(
      `SELECT coalesce(sum(available_at <= ? OR lock_token IS NOT NULL), 0) AS visible, coalesce(sum(available_at > ? AND lock_token IS NULL), 0) AS scheduled
       FROM sb_messages WHERE queue = ? AND correlation_id = ?`,
    ),
    deadLettersByCorrelation: db.prepare<[string, string], { n: number; last_at: number | null }>(
      'SELECT count(*) AS n, max(dead_lettered_at) AS last_at FROM sb_dead_letters WHERE queue = ? AND correlation_id = ?',
    ),
    lastDeadLetterByCorrelation: db.prepare<[string, string], { reason: string; description: string; dead_lettered_at: number }>(
      'SELECT reason, description, dead_lettered_at FROM sb_dead_letters WHERE queue = ? AND correlation_id = ? ORDER BY dead_lettered_at DESC, seq DESC LIMIT 1',
    ),
    listDeadLetters: db.prepare<[string, number, number], DeadLetterListRow>(
      `SELECT ${DEAD_LETTER_COLUMNS}, dead_lettered_at, reason, description FROM sb_dead_letters
       WHERE queue = ? ORDER BY seq LIMIT ? OFFSET ?`,
    ),
    selectAllDeadLetters: db.prepare<[string], DeadLetterListRow>(
      `SELECT ${DEAD_LETTER_COLUMNS}, dead_lettered_at, reason, description FROM sb_dead_letters WHERE queue = ? ORDER BY seq`,
    ),
    selectDeadLettersById: db.prepare<[string, string], DeadLetterListRow>(
      `SELECT ${DEAD_LETTER_COLUMNS}, dead_lettered_at, reason, description FROM sb_dead_letters
       WHERE queue = ? AND message_id IN (SELECT value FROM json_each(?)) ORDER BY seq`,
    ),
    deleteDeadLetter: db.prepare('DELETE FROM sb_dead_letters WHERE seq = ?'),
    countByAvailability: db.prepare<[number, number, string], { visible: number; invisible: number }>(
      `SELECT coalesce(sum(available_at <= ?), 0) AS visible, coalesce(sum(available_at > ?), 0) AS invisible
       FROM sb_messages WHERE queue = ?`,
    ),
    countLocked: db.prepare<[string, number], { n: number }>(
      'SELECT count(*) AS n FROM sb_messages WHERE lock_token IS NOT NULL AND queue = ? AND available_at > ?',
    ),
    countDeadLetters: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM sb_dead_letters WHERE queue = ?'),
  };
}

export type QueueStatements = ReturnType<typeof prepareQueueStatements>;
