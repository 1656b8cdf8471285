import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteQueueEngine } from './queueEngine.js';
import { TempDatabase } from './testSupport.js';
import type { OutboundMessage, QueueEngineOptions } from './types.js';

const T0 = Date.UTC(2025, 0, 1);
const MINUTE = 60_000;

describe('SqliteQueueEngine priorities', () => {
  let temp: TempDatabase;
  let clock: number;
  const engineFor = (options: QueueEngineOptions = {}) =>
    new SqliteQueueEngine(temp.db, { now: () => clock, lockDurationMs: 1_000, priorityAgingMs: 10 * MINUTE, ...options });
  const bodies = (engine: SqliteQueueEngine, max = 100) => engine.receive('q', { maxMessages: max }).map((m) => m.body);
  const msgs = (names: string[], priority?: number): OutboundMessage[] =>
    names.map((name) => ({ body: name, messageId: name, ...(priority !== undefined ? { priority } : {}) }));

  beforeEach(() => {
    temp = new TempDatabase();
    clock = T0;
  });
  afterEach(() => temp.dispose());

  it('receives higher priorities first, each priority in sequence order', () => {
    const engine = engineFor();
    engine.send('q', msgs(['low1', 'low2'], -1));
    engine.send('q', msgs(['n1', 'n2']));
    engine.send('q', msgs(['high1', 'high2'], 1));
    expect(bodies(engine)).toEqual(['high1', 'high2', 'n1', 'n2', 'low1', 'low2']);
  });

  it('a batch takes the high messages sent after a big low backlog first, then the backlog in its order', () => {
    const engine = engineFor();
    engine.send(
      'q',
      msgs(
        Array.from({ length: 50 }, (_, i) => `low${i}`),
        -1,
      ),
    );
    clock += 1_000;
    engine.send('q', msgs(['high0', 'high1', 'high2'], 1));
    expect(bodies(engine, 5)).toEqual(['high0', 'high1', 'high2', 'low0', 'low1']);
    expect(bodies(engine, 3)).toEqual(['low2', 'low3', 'low4']);
  });

  it('ages: a low message waiting longer than 2 × priorityAgingMs goes before a new high one (no starvation)', () => {
    const engine = engineFor();
    engine.send('q', msgs(['old-low'], -1));
    clock += 20 * MINUTE - 1;
    engine.send('q', msgs(['new-high'], 1));
    // rank(old-low) = T0 + 10 min; rank(new-high) = T0 + 20 min - 1 ms - 10 min: high still first
    expect(bodies(engine, 1)).toEqual(['new-high']);
    clock += 2;
    engine.send('q', msgs(['newer-high'], 1));
    // newer-high ranks at T0 + 10 min + 1 ms: the low message has now waited long enough
    expect(bodies(engine)).toEqual(['old-low', 'newer-high']);
  });

  it('with priorityAgingMs 0 priorities are ignored (plain sequence order)', () => {
    const engine = engineFor({ priorityAgingMs: 0 });
    engine.send('q', msgs(['a'], -1));
    engine.send('q', msgs(['b'], 1));
    expect(bodies(engine)).toEqual(['a', 'b']);
  });

  it('an abandoned message keeps its place; a locked one is skipped', () => {
    const engine = engineFor();
    engine.send('q', msgs(['n1', 'n2']));
    engine.send('q', msgs(['h1'], 1));
    const [first] = engine.receive('q', { maxMessages: 1 });
    expect(first?.body).toBe('h1');
    expect(bodies(engine, 1)).toEqual(['n1']);
    engine.abandon([first!.lockToken]);
    expect(bodies(engine)).toEqual(['h1', 'n2']);
  });

  it('a dead letter keeps its priority when replayed', () => {
    const engine = engineFor({ maxDeliveryCount: 1 });
    engine.send('q', msgs(['h'], 1));
    const [h] = engine.receive('q', { maxMessages: 1 });
    engine.abandon([h!.lockToken]);
    expect(engine.counts('q').deadLettered).toBe(1);
    engine.send('q', msgs(['n']));
    expect(engine.replayDeadLetters('q')).toBe(1);
    expect(bodies(engine)).toEqual(['h', 'n']);
  });

  it('crash isolation still holds: a released message comes alone, in priority order', () => {
    const engine = engineFor();
    engine.send('q', msgs(['n1', 'n2']));
    engine.send('q', msgs(['h1'], 1));
    expect(bodies(engine, 2)).toEqual(['h1', 'n1']);
    expect(engine.releaseLocks('q')).toBe(2);
    const alone = engine.receive('q', { maxMessages: 10 });
    expect(alone.map((m) => [m.body, m.releasedAfterCrash])).toEqual([['h1', true]]);
  });

  it.each([1.5, 11, -11, Number.NaN])('refuses priority %s before writing anything', (priority) => {
    const engine = engineFor();
    expect(() => engine.send('q', [{ body: 'ok' }, { body: 'bad', priority }])).toThrow(/priority must be a whole number from -10 to 10/);
    expect(engine.counts('q').active).toBe(0);
  });

  it('migrates a database made before priorities: old messages are priority 0 in their order', () => {
    temp.db.exec(`CREATE TABLE sb_messages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, queue TEXT NOT NULL, message_id TEXT NOT NULL, body TEXT,
      body_kind INTEGER NOT NULL DEFAULT 0, correlation_id TEXT, subject TEXT, app_props TEXT, enqueued_at INTEGER NOT NULL,
      expires_at INTEGER, available_at INTEGER NOT NULL, delivery_count INTEGER NOT NULL DEFAULT 0, lock_token TEXT,
      last_error TEXT, released_after_crash INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE sb_dead_letters (seq INTEGER PRIMARY KEY, queue TEXT NOT NULL, message_id TEXT NOT NULL, body TEXT,
      body_kind INTEGER NOT NULL DEFAULT 0, correlation_id TEXT, subject TEXT, app_props TEXT, enqueued_at INTEGER NOT NULL,
      delivery_count INTEGER NOT NULL, dead_lettered_at INTEGER NOT NULL, reason TEXT NOT NULL, description TEXT NOT NULL);
      INSERT INTO sb_messages (queue, message_id, body, enqueued_at, available_at) VALUES
        ('q', 'old1', '"old1"', ${T0 - 2 * MINUTE}, ${T0 - 2 * MINUTE}), ('q', 'old2', '"old2"', ${T0 - MINUTE}, ${T0 - MINUTE});`);
    const engine = engineFor();
    engine.send('q', msgs(['new-normal']));
    engine.send('q', msgs(['new-high'], 1));
    expect(bodies(engine)).toEqual(['new-high', 'old1', 'old2', 'new-normal']);
    const columns = temp.db.prepare<[], { name: string }>('PRAGMA table_info(sb_dead_letters)').all();
    expect(columns.map((c) => c.name)).toContain('priority');
  });
});
