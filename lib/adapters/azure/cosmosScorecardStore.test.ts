import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleScorecard, scorecardStoreContract } from '../../ports/contracts/index.js';
import { COSMOS_CONTAINERS, SCORECARD_SHARDS, shardOf } from './cosmosContainers.js';
import { startCosmosEmulator, type CosmosEmulator } from './cosmosEmulator.test-helpers.js';
import { CosmosScorecardStore, scorecardKey } from './cosmosScorecardStore.js';

let emulator: CosmosEmulator;
beforeAll(async () => {
  emulator = await startCosmosEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const newStore = async (ttlSeconds?: number) =>
  new CosmosScorecardStore(
    (await emulator.newDatabase(['scorecards'])).container(COSMOS_CONTAINERS.scorecards.id),
    ttlSeconds === undefined ? {} : { ttlSeconds },
  );

scorecardStoreContract('CosmosScorecardStore', () => newStore());

describe('CosmosScorecardStore documents', () => {
  it('stores the card fields at the top level under [run_id, shard], with the content hash and the configured ttl', async () => {
    const store = await newStore(86_400);
    const card = sampleScorecard('run-1', 'case/1');
    await store.upsertScorecards([card]);
    const { id, partitionKey } = scorecardKey('run-1', 'case/1');
    expect({ id, partitionKey }).toEqual({ id: 'case%2F1', partitionKey: ['run-1', shardOf('case/1')] });
    const { resource } = await store.container.item(id, partitionKey).read();
    expect(resource).toEqual({
      ...card,
      id: 'case%2F1',
      shard: shardOf('case/1'),
      content_hash: expect.any(String),
      ttl: 86_400,
      _etag: expect.any(String),
      _rid: expect.any(String),
      _self: expect.any(String),
      _ts: expect.any(Number),
    });
    expect(await store.getScorecard('run-1', 'case/1')).toEqual(card);
  });

  it('spreads one run over the shards (a 400k burst is not one logical partition)', () => {
    const shards = new Set(Array.from({ length: 2_000 }, (_, i) => shardOf(`case-${i}`)));
    expect(shards.size).toBe(SCORECARD_SHARDS);
  });

  it('counts concurrent writers of one card once: the later attempt wins, every write reported once', async () => {
    const store = await newStore();
    const attempts = [1, 2, 3, 2, 1].map((attempt) => sampleScorecard('run-1', 'a', { attempt, passed: attempt === 3 }));
    const results = await Promise.all(attempts.map((card) => store.upsertScorecards([card])));
    expect(results.reduce((n, r) => n + r.written + r.unchanged, 0)).toBe(5);
    expect(await store.getScorecard('run-1', 'a')).toEqual(attempts[2]);
  });
});
