import { afterEach, describe, expect, it } from 'vitest';
import { caseContentHash, versionContentHash } from '../domain/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { sampleRun, sampleScorecard, sampleTestCase } from '../ports/contracts/fixtures.js';
import { tempStores } from './retailRuns.test-helpers.js';
import { onlyCases, sameContentCaseIds } from './sameContentCases.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

describe('alerts pair only same-content cases across suite versions', () => {
  it('a pinned baseline and a live run: cases whose body changed are left out; the same version pairs everything', async () => {
    const stores = tempStores(temps);
    const cases = ['c1', 'c2', 'c3'].map((id) => sampleTestCase(id));
    const published = cases.map((c) => ({ test_case: c, content_hash: caseContentHash(c) }));
    await stores.suiteVersions.publish(
      {
        suite_id: 's',
        version: 1,
        author: 'a',
        note: '',
        created_at: '2026-03-01T00:00:00.000Z',
        case_count: 3,
        content_hash: versionContentHash(published.map((p) => ({ test_case_id: p.test_case.id, content_hash: p.content_hash }))),
      },
      published,
    );
    const baseline = await stores.runs.createRun(sampleRun('base', { suite_id: 's', suite_version: 1, status: 'completed' }));
    const current = await stores.runs.createRun(sampleRun('cur', { suite_id: 's', status: 'completed' }));
    const edited = { ...cases[1]!, nl_query: 'edited' };
    await stores.scorecards.upsertScorecards([
      { ...sampleScorecard('cur', 'c1'), case_hash: caseContentHash(cases[0]!) },
      { ...sampleScorecard('cur', 'c2'), case_hash: caseContentHash(edited) },
      sampleScorecard('cur', 'c3'), // an older scorecard without a hash: unknown, not paired
    ]);
    const same = await sameContentCaseIds(current, baseline, stores);
    expect([...same!]).toEqual(['c1']);
    const kept: string[] = [];
    for await (const c of onlyCases(stores.scorecards.iterateScorecards('cur'), same)) kept.push(c.test_case_id);
    expect(kept).toEqual(['c1']);
    expect(await sameContentCaseIds(baseline, { ...baseline, id: 'other' }, stores)).toBeUndefined();
  });
});
