import type Database from 'better-sqlite3';

/**
 * Tables of the embedded Service Bus (prefix `sb_`). `seq` is the sequence number: one AUTOINCREMENT counter for
 * all queues, so numbers only grow (per queue too) and are never reused, even after every message completes.
 * `available_at` is when the message can next be received: the scheduled time, the lock expiry while locked
 * (`lock_token` set), or the abandon time. Dead-lettered messages move to `sb_dead_letters` (same `seq`).
 * `priority` (higher first) and `rank_at` give the receive order: `rank_at = enqueued_at - priority × agingMs`, so a
 * message of priority p is taken as if it had been enqueued p × agingMs earlier (README "Priorities").
 */
const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS sb_messages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  queue TEXT NOT NULL,
  message_id TEXT NOT NULL,
  body TEXT,
  body_kind INTEGER NOT NULL DEFAULT 0,
  correlation_id TEXT,
  subject TEXT,
  app_props TEXT,
  enqueued_at INTEGER NOT NULL,
  expires_at INTEGER,
  available_at INTEGER NOT NULL,
  delivery_count INTEGER NOT NULL DEFAULT 0,
  lock_token TEXT,
  last_error TEXT,
  released_after_crash INTEGER NOT NULL DEFAULT 0,
  priority INTEGER NOT NULL DEFAULT 0,
  rank_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sb_messages_by_queue ON sb_messages (queue, seq, available_at);
CREATE INDEX IF NOT EXISTS sb_messages_by_lock ON sb_messages (lock_token) WHERE lock_token IS NOT NULL;
CREATE TABLE IF NOT EXISTS sb_dead_letters (
  seq INTEGER PRIMARY KEY,
  queue TEXT NOT NULL,
  message_id TEXT NOT NULL,
  body TEXT,
  body_kind INTEGER NOT NULL DEFAULT 0,
  correlation_id TEXT,
  subject TEXT,
  app_props TEXT,
  enqueued_at INTEGER NOT NULL,
  delivery_count INTEGER NOT NULL,
  dead_lettered_at INTEGER NOT NULL,
  reason TEXT NOT NULL,
  description TEXT NOT NULL,
  priority INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sb_dead_letters_by_queue ON sb_dead_letters (queue, seq);
CREATE TABLE IF NOT EXISTS sb_dedup (
  queue TEXT NOT NULL,
  message_id TEXT NOT NULL,
  seen_at INTEGER NOT NULL,
  PRIMARY KEY (queue, message_id)
) WITHOUT ROWID;
`;

export function createQueueSchema(db: Database.Database): void {
  db.exec(SCHEMA_SQL);
  // databases made before crash isolation lack the column
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(sb_messages)').all();
  if (!columns.some((c) => c.name === 'released_after_crash'))
    db.exec('ALTER TABLE sb_messages ADD COLUMN released_after_crash INTEGER NOT NULL DEFAULT 0');
  // databases made before priorities: every waiting message is priority 0, ranked by its enqueue time
  if (!columns.some((c) => c.name === 'priority')) {
    db.transaction(() => {
      db.exec('ALTER TABLE sb_messages ADD COLUMN priority INTEGER NOT NULL DEFAULT 0');
      db.exec('ALTER TABLE sb_messages ADD COLUMN rank_at INTEGER NOT NULL DEFAULT 0');
      db.exec('UPDATE sb_messages SET rank_at = enqueued_at');
    })();
  }
  const deadLetterColumns = db.prepare<[], { name: string }>('PRAGMA table_info(sb_dead_letters)').all();
  if (!deadLetterColumns.some((c) => c.name === 'priority'))
    db.exec('ALTER TABLE sb_dead_letters ADD COLUMN priority INTEGER NOT NULL DEFAULT 0');
  // the receive order: rank, then sequence; available_at in the index so locked and scheduled rows are skipped in it
  db.exec('CREATE INDEX IF NOT EXISTS sb_messages_by_rank ON sb_messages (queue, rank_at, seq, available_at)');
}
