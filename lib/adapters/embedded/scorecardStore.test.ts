import { afterEach, describe, expect, it } from 'vitest';
import type { Scorecard } from '../../domain/index.js';
import { sampleScorecard } from '../../ports/contracts/fixtures.js';
import { scorecardStoreContract } from '../../ports/contracts/scorecardStore.contract.js';
import { caseOutcomeOf, outcomeId } from '../../domain/stats/caseOutcome.js';
import { encodeScorecard } from '../shared/scorecardEncoding.js';
import { EmbeddedScorecardStore, SCORECARD_CONTAINER } from './scorecardStore.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

scorecardStoreContract('EmbeddedScorecardStore', () => {
  const temp = temps.open();
  return new EmbeddedScorecardStore(temp.db, temp.changeLog);
});

function feed(temp: ReturnType<TempDatabases['open']>): Array<{ id: string; body: unknown }> {
  return temp.changeLog.read(SCORECARD_CONTAINER, 0, 1_000).map((entry) => ({ id: entry.id, body: JSON.parse(entry.body) }));
}

describe('EmbeddedScorecardStore (embedded specifics)', () => {
  it('appends the CaseOutcome of every written card to the change log, and nothing for unchanged ones', async () => {
    const temp = temps.open();
    const store = new EmbeddedScorecardStore(temp.db, temp.changeLog);
    const a = sampleScorecard('run-1', 'a');
    const b = sampleScorecard('run-1', 'b', { passed: false });
    const b2 = sampleScorecard('run-1', 'b', { attempt: 2 });
    await store.upsertScorecards([a, b]);
    await store.upsertScorecards([{ ...a, worker_id: 'other' }, b2, b]);
    expect(feed(temp)).toEqual([
      { id: outcomeId('run-1', 'a'), body: caseOutcomeOf(a) },
      { id: outcomeId('run-1', 'b'), body: caseOutcomeOf(b) },
      { id: outcomeId('run-1', 'b'), body: caseOutcomeOf(b2) },
    ]);
  });

  it('wakes change-feed listeners once per batch that wrote something', async () => {
    const temp = temps.open();
    const store = new EmbeddedScorecardStore(temp.db, temp.changeLog);
    let wakeUps = 0;
    temp.changeLog.onAppend(SCORECARD_CONTAINER, () => wakeUps++);
    await store.upsertScorecards([sampleScorecard('r', 'a'), sampleScorecard('r', 'b')]);
    await store.upsertScorecards([sampleScorecard('r', 'a')]);
    expect(wakeUps).toBe(1);
  });

  it('rolls back the whole batch, rows and change log, when a card cannot be written', async () => {
    const temp = temps.open();
    const store = new EmbeddedScorecardStore(temp.db, temp.changeLog);
    const broken = { ...sampleScorecard('run-1', 'x'), run_id: null } as unknown as Scorecard;
    await expect(store.upsertScorecards([sampleScorecard('run-1', 'a'), broken])).rejects.toThrow(/NOT NULL/);
    expect(await store.countScorecards('run-1')).toBe(0);
    expect(feed(temp)).toEqual([]);
  });

  it('keeps cards across a restart (a redelivered card is still unchanged)', async () => {
    const temp = temps.open();
    await new EmbeddedScorecardStore(temp.db, temp.changeLog).upsertScorecards([sampleScorecard('r', 'a')]);
    const again = temps.reopen(temp);
    const store = new EmbeddedScorecardStore(again.db, again.changeLog);
    expect(await store.upsertScorecards([{ ...sampleScorecard('r', 'a'), worker_id: 'after-restart' }])).toEqual({
      written: 0,
      unchanged: 1,
    });
    expect(feed(again)).toHaveLength(1);
  });

  it("lists in the order of each card's first write", async () => {
    const temp = temps.open();
    const store = new EmbeddedScorecardStore(temp.db, temp.changeLog);
    await store.upsertScorecards(['z', 'a', 'm'].map((id) => sampleScorecard('r', id)));
    await store.upsertScorecards([sampleScorecard('r', 'z', { attempt: 2 })]);
    expect((await store.listScorecards('r')).items.map((card) => card.test_case_id)).toEqual(['z', 'a', 'm']);
  });
});

describe('createScorecardTables', () => {
  it('rebuilds the tag rows of an older database (without filter columns) from the cards', async () => {
    const temp = temps.open();
    temp.db.exec(`
      CREATE TABLE st_scorecards (run_id TEXT NOT NULL, test_case_id TEXT NOT NULL, attempt_number INTEGER NOT NULL,
        overall_passed INTEGER NOT NULL, failing_stage TEXT, error_code TEXT, category TEXT, content_hash TEXT NOT NULL,
        tags TEXT NOT NULL, body TEXT NOT NULL, UNIQUE (run_id, test_case_id));
      CREATE TABLE st_scorecard_tags (run_id TEXT NOT NULL, tag TEXT NOT NULL, card INTEGER NOT NULL, PRIMARY KEY (run_id, tag, card)) WITHOUT ROWID;
      INSERT INTO st_scorecards VALUES ('r', 'a', 1, 0, 'logic', 'missing_call', 'travel', 'h', '["smoke","x"]', '{}');
      INSERT INTO st_scorecard_tags VALUES ('r', 'smoke', 1), ('r', 'x', 1);`);
    const store = new EmbeddedScorecardStore(temp.db, temp.changeLog);
    expect(await store.countScorecards('r', { tag: 'smoke', passed: false, failing_stage: 'logic' })).toBe(1);
    expect(await store.countScorecards('r', { tag: 'x', category: 'travel' })).toBe(1);
    expect(await store.countScorecards('r', { tag: 'x', category: 'weather' })).toBe(0);
  });
});

describe('encodeScorecard', () => {
  it('writes the whole card as JSON and hashes everything but timestamp, worker and evaluation time', () => {
    const card = sampleScorecard('r', 'a');
    const encoded = encodeScorecard(card);
    expect(JSON.parse(encoded.body)).toEqual(card);
    expect(encodeScorecard({ ...card, timestamp: '2030-01-01T00:00:00Z', worker_id: 'w', evaluation_ms: 9 }).contentHash).toBe(
      encoded.contentHash,
    );
    expect(encodeScorecard({ ...card, latency_ms: 121 }).contentHash).not.toBe(encoded.contentHash);
    expect(encodeScorecard({ ...card, attempt_number: 2 }).contentHash).not.toBe(encoded.contentHash);
  });
});
