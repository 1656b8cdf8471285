import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleRun, sampleScorecard } from '../../ports/contracts/index.js';
import { aggregateOutcomes } from '../../runs/aggregateOutcomes.js';
import { caseOutcomeOf, recomputeFrom, toRunStats } from '../../domain/stats/index.js';
import { COSMOS_CONTAINERS } from './cosmosContainers.js';
import { startCosmosEmulator, type CosmosEmulator } from './cosmosEmulator.test-helpers.js';
import { createCosmosStores } from './createCosmosStores.js';

let emulator: CosmosEmulator;
beforeAll(async () => {
  emulator = await startCosmosEmulator();
});
afterAll(async () => {
  await emulator.close();
});

/**
 * The emulator's change feed is a stub (research §6), so the feed handler's logic (functions/feeds/runStatsFeed.ts
 * calls aggregateOutcomes) gets what the Functions trigger would hand it: arrays of whole scorecard documents as
 * Cosmos DB stores them (card fields at the top level, plus id, shard, content_hash and _rid/_self/_etag/_ts).
 */
describe('run statistics from whole Cosmos scorecard documents (the change-feed handler)', () => {
  it('folds the documents, reports the run complete once every case is in, and ignores redeliveries and foreign documents', async () => {
    const database = await emulator.newDatabase();
    const stores = createCosmosStores(database);
    await stores.runs.createRun(sampleRun('run-1', { status: 'running', total_cases: 3 }));
    const cards = [
      sampleScorecard('run-1', 'a'),
      sampleScorecard('run-1', 'b/1', { passed: false, failing_stage: 'syntax', error_code: 'unparseable_output', category: null }),
      sampleScorecard('run-1', 'c', { tags: ['refunds'] }),
    ];
    await stores.scorecards.upsertScorecards(cards);
    const { resources: documents } = await database.container(COSMOS_CONTAINERS.scorecards.id).items.query('SELECT * FROM c').fetchAll();
    expect(documents[0]).toMatchObject({
      _rid: expect.any(String),
      _ts: expect.any(Number),
      _etag: expect.any(String),
      shard: expect.any(String),
    });

    const first = await aggregateOutcomes(documents.slice(0, 2), stores);
    expect([first.completed_run_ids, first.ignored, first.stats[0]?.completed]).toEqual([[], 0, 2]);

    const rest = await aggregateOutcomes(
      [...documents.slice(1), { id: 'lease-doc', owner: 'host-1' }, { ...documents[0], run_id: 'unknown-run' }],
      stores,
    );
    const expected = toRunStats('run-1', recomputeFrom(cards.map(caseOutcomeOf)), 3, rest.stats[0]?.updated_at ?? '');
    expect(rest).toEqual({ stats: [expected], completed_run_ids: ['run-1'], ignored: 2 });

    const redelivered = await aggregateOutcomes(documents, stores);
    expect(redelivered.stats).toEqual([expected]);
    expect(await stores.runStats.getRunStats('run-1')).toEqual(expected);
  });
});
