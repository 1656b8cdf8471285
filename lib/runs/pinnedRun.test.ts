import { afterEach, describe, expect, it } from 'vitest';
import { caseContentHash } from '../domain/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { tempStores } from '../alerts/retailRuns.test-helpers.js';
import { sampleSuite, sampleTarget, sampleTestCase } from '../ports/contracts/fixtures.js';
import type { Stores } from '../ports/index.js';
import { createRun, UnknownReferenceError } from './createRun.js';
import { loadRunCases, runCaseKey } from './loadRunCases.js';
import { planRun } from './planRun.js';
import { publishSuiteVersion } from './publishSuiteVersion.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());
const clock = { now: () => new Date('2026-03-02T10:00:00.000Z') };

async function setup(): Promise<Stores> {
  const stores = tempStores(temps);
  await stores.targets.upsert(sampleTarget('t'));
  await stores.testCases.upsertTestCases(['c1', 'c2', 'c3'].map((id) => sampleTestCase(id, { category: id === 'c3' ? 'x' : 'y' })));
  await stores.suites.upsert({ ...sampleSuite('s'), test_case_ids: ['c1', 'c2'] });
  return stores;
}

async function shardIds(stores: Stores, runId: string): Promise<string[]> {
  const run = (await stores.runs.getRun(runId))!;
  const ids: string[] = [];
  for (let i = 0; i < run.shard_count; i++) ids.push(...((await stores.runs.getShard(runId, i)) ?? []));
  return ids;
}

describe('a run pinned to a suite version', () => {
  it('enumerates exactly the version ids and evaluates the published bodies, whatever changed in the suite or the gold set', async () => {
    const stores = await setup();
    const v1 = await publishSuiteVersion('s', { author: 'alice', note: 'n' }, { stores, clock });
    const published = (await stores.testCases.getTestCases(['c1']))[0]!;
    // after publication: c2 leaves the suite, c3 joins, c1's body changes and c2 is deleted from the gold set
    await stores.suites.upsert({ ...sampleSuite('s'), test_case_ids: ['c1', 'c3'] });
    await stores.testCases.replaceTestCase({ ...published, nl_query: 'edited after publication' });
    await stores.testCases.deleteTestCase('c2');

    const pinned = await createRun({ suite_id: 's', target_id: 't' }, { stores, clock });
    expect(pinned.suite_version).toBe(v1.version);
    await planRun(pinned.id, { stores, clock });
    expect(await shardIds(stores, pinned.id)).toEqual(['c1', 'c2']);
    const bodies = await loadRunCases(
      ['c1', 'c2'].map((id) => ({ run: pinned, test_case_id: id })),
      stores,
    );
    expect(bodies.get(runCaseKey(pinned.id, 'c1'))).toEqual(published);
    expect(caseContentHash(bodies.get(runCaseKey(pinned.id, 'c1'))!)).not.toBe(
      caseContentHash((await stores.testCases.getTestCase('c1'))!),
    );
    expect(bodies.get(runCaseKey(pinned.id, 'c2'))?.id).toBe('c2');

    // a live run in the same batch sees the gold set as it is now
    const live = await createRun({ suite_id: 's', target_id: 't', suite_version: 'live' }, { stores, clock });
    expect(live.suite_version).toBeNull();
    await planRun(live.id, { stores, clock });
    expect(await shardIds(stores, live.id)).toEqual(['c1', 'c3']);
    const mixed = await loadRunCases(
      [
        { run: pinned, test_case_id: 'c1' },
        { run: live, test_case_id: 'c1' },
      ],
      stores,
    );
    expect(mixed.get(runCaseKey(pinned.id, 'c1'))!.nl_query).toBe(published.nl_query);
    expect(mixed.get(runCaseKey(live.id, 'c1'))!.nl_query).toBe('edited after publication');
  });

  it('no published version: latest means live; an unknown number is refused naming suite_version', async () => {
    const stores = await setup();
    expect((await createRun({ suite_id: 's', target_id: 't' }, { stores, clock })).suite_version).toBeNull();
    await expect(createRun({ suite_id: 's', target_id: 't', suite_version: 3 }, { stores, clock })).rejects.toThrow(UnknownReferenceError);
    await expect(createRun({ suite_id: 's', target_id: 't', suite_version: 3 }, { stores, clock })).rejects.toThrow(/suite_version: "s@3"/);
  });

  it('a sampled pinned run draws from the version and records population and strata', async () => {
    const stores = await setup();
    await stores.suites.upsert({ ...sampleSuite('s'), test_case_ids: ['c1', 'c2', 'c3'] });
    await publishSuiteVersion('s', { author: 'alice' }, { stores, clock });
    const run = await createRun(
      {
        suite_id: 's',
        target_id: 't',
        config: { sample: { size: 2, method: 'stratified', stratify_by: 'category', allocation: 'equal', seed: 1 } },
      },
      { stores, clock },
    );
    await planRun(run.id, { stores, clock });
    const planned = (await stores.runs.getRun(run.id))!;
    expect(planned.total_cases).toBe(2);
    expect(planned.sample).toMatchObject({
      population_size: 3,
      sample_size: 2,
      strata: [
        { stratum: 'x', population: 1, sample: 1 },
        { stratum: 'y', population: 2, sample: 1 },
      ],
    });
    const ids = await shardIds(stores, run.id);
    expect(ids).toContain('c3');
    expect(ids).toHaveLength(2);
  });
});
