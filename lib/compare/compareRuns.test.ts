import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComparisonSchema, type Comparison, type GroupDelta } from '../domain/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { ConflictError, NotFoundError } from '../ports/index.js';
import { compareRuns } from './compareRuns.js';
import { openStores, RETAIL_DIR, retailCards, storeRun, withRandomFlips, type TestStores } from './retail.test-helpers.js';

const temps = new TempDatabases();
let stores: TestStores;
const clock = { now: () => new Date('2026-10-14T12:00:00.000Z') };
const deps = () => ({ stores, clock });

/** The answer key: which cases each model was made to pass. */
async function answerKey(): Promise<Map<string, { a: boolean; b: boolean; category: string }>> {
  const key = new Map<string, { a: boolean; b: boolean; category: string }>();
  for (const line of (await readFile(join(RETAIL_DIR, 'annotations.jsonl'), 'utf8')).split('\n').filter(Boolean)) {
    const row = JSON.parse(line) as { test_case_id: string; model: string; category: string; intended: { overall_passed: boolean } };
    const entry = key.get(row.test_case_id) ?? { a: false, b: false, category: row.category };
    if (row.model === 'model-a') entry.a = row.intended.overall_passed;
    else entry.b = row.intended.overall_passed;
    key.set(row.test_case_id, entry);
  }
  return key;
}

const significantKeys = (groups: readonly GroupDelta[]) => groups.filter((g) => g.significant).map((g) => g.key);

beforeAll(async () => {
  stores = openStores(temps);
  const [a, b] = await Promise.all([retailCards('model-a'), retailCards('model-b')]);
  await storeRun(stores, 'run-a', a, { target_id: 'simulated-model-a' });
  await storeRun(stores, 'run-b', b, { target_id: 'simulated-model-b' });
  await storeRun(stores, 'run-a-again', a, { target_id: 'simulated-model-a' });
  await storeRun(stores, 'run-a-noisy', withRandomFlips(a, 6, 11), { target_id: 'simulated-model-a' });
  await storeRun(stores, 'run-b-part', b.slice(0, 200), { target_id: 'simulated-model-b', suite_id: 'retail-part' });
  await storeRun(stores, 'run-live', a.slice(0, 100), { status: 'running', total_cases: 327 });
}, 60_000);

afterAll(() => temps.closeAll());

describe('compareRuns on the retail sample (model B vs model A)', () => {
  let comparison: Comparison;
  beforeAll(async () => {
    comparison = await compareRuns(['run-a', 'run-b'], deps(), { seed: 7 });
  });

  it('is a valid Comparison with both runs side by side (README: 87.8% vs 83.2%)', () => {
    expect(ComparisonSchema.parse(comparison)).toBeTruthy();
    expect(comparison.runs.map((r) => [r.label, r.run_id, r.pass_rate.passed, r.pass_rate.n])).toEqual([
      ['A', 'run-a', 287, 327],
      ['B', 'run-b', 272, 327],
    ]);
    expect(comparison.runs.map((r) => (r.pass_rate.rate! * 100).toFixed(1))).toEqual(['87.8', '83.2']);
    const [a, b] = comparison.runs;
    // README: B is ~17% slower (p50 2.6 s vs 2.2 s) and about twice as expensive
    expect(b!.latency_ms.p50!.estimate).toBeGreaterThan(a!.latency_ms.p50!.estimate);
    expect(b!.cost_usd.total.estimate / a!.cost_usd.total.estimate).toBeGreaterThan(1.5);
    expect(a!.accuracy_per_dollar).toBeCloseTo(287 / a!.cost_usd.total.estimate, 6);
    for (const r of comparison.runs) {
      for (const p of [r.latency_ms.p50!, r.latency_ms.p95!, r.latency_ms.p99!]) {
        expect(p.lower).toBeLessThanOrEqual(p.estimate);
        expect(p.upper).toBeGreaterThanOrEqual(p.estimate);
      }
    }
  });

  it('pairs all 327 cases and finds exactly the flips the answer key implies', async () => {
    const key = await answerKey();
    const expectedFailing = [...key]
      .filter(([, v]) => v.a && !v.b)
      .map(([id]) => id)
      .sort();
    const expectedPassing = [...key]
      .filter(([, v]) => !v.a && v.b)
      .map(([id]) => id)
      .sort();
    const [pair] = comparison.pairs;
    expect(pair!.cases).toEqual({ baseline: 327, candidate: 327, shared: 327, only_baseline: 0, only_candidate: 0 });
    expect([pair!.overall.newly_failing, pair!.overall.newly_passing]).toEqual([expectedFailing.length, expectedPassing.length]);
    expect(pair!.flipped.newly_failing.total).toBe(expectedFailing.length);
    expect(pair!.flipped.newly_failing.cases.map((c) => c.test_case_id)).toEqual(expectedFailing);
    expect(pair!.flipped.newly_passing.cases.map((c) => c.test_case_id)).toEqual(expectedPassing);
    const first = pair!.flipped.newly_failing.cases[0]!;
    expect([first.baseline.passed, first.candidate.passed, first.baseline.failing_stage]).toEqual([true, false, null]);
    expect(first.candidate.failing_stage).not.toBeNull();
    expect(first.candidate.error_code).not.toBeNull();
  });

  it('flags the refunds regression as significant after Holm, and no other category', () => {
    const [pair] = comparison.pairs;
    const refunds = pair!.by_category.find((g) => g.key === 'refunds')!;
    expect(refunds).toMatchObject({ paired_cases: 47, significant: true });
    expect(refunds.baseline.rate! * 100).toBeCloseTo(89.4, 1);
    expect(refunds.candidate.rate! * 100).toBeCloseTo(59.6, 1);
    expect(refunds.upper!).toBeLessThan(0);
    expect(refunds.p_value_adjusted).toBeLessThan(0.05);
    expect(refunds.p_value_adjusted).toBeGreaterThanOrEqual(refunds.p_value);
    expect(significantKeys(pair!.by_category)).toEqual(['refunds']);
    expect(pair!.by_category.map((g) => g.key)).toEqual([
      'abstention',
      'analytics',
      'inventory',
      'orders',
      'products',
      'refunds',
      'shipping',
      'support',
    ]);
    expect(pair!.by_complexity.map((g) => g.key)).toEqual(['1', '2', '3', '4', '5']);
    expect(pair!.significant).toBe(true);
    expect(pair!.verdict).toMatch(
      /^B is worse than A on refunds by 29\.8 points \(89\.4% → 59\.6%\), p = 0\.0\d+ \(Holm-adjusted over 8\); overall -4\.6 points \(87\.8% → 83\.2%\), p = 0\.\d+, not significant$/,
    );
  });

  it('reports stage deltas, the score difference, the Bayesian view and the MDE consistently', () => {
    const [pair] = comparison.pairs;
    expect(pair!.stages.map((s) => s.stage)).toEqual(['syntax', 'logic', 'execution', 'semantics']);
    expect(pair!.overall.difference!).toBeCloseTo((272 - 287) / 327, 12);
    expect(pair!.overall.lower!).toBeLessThan(pair!.overall.difference!);
    expect(pair!.score.difference!.lower).toBeLessThan(pair!.score.difference!.upper);
    expect(pair!.bayesian.probability_b_better).toBeLessThan(0.1);
    expect(pair!.bayesian.expected_loss_choosing_b).toBeGreaterThan(0);
    expect(pair!.minimum_detectable_effect.discordance).toBeCloseTo((49 + 34) / 327, 12);
    expect(pair!.minimum_detectable_effect.paired!).toBeGreaterThan(0.03);
    expect(pair!.minimum_detectable_effect.paired!).toBeLessThan(pair!.minimum_detectable_effect.unpaired!);
    expect(pair!.latency_ms!.difference).toBeGreaterThan(0);
    expect(pair!.cost_per_case_usd!.p_value).toBeLessThan(0.001);
  });

  it('is deterministic for a seed', async () => {
    const again = await compareRuns(['run-a', 'run-b'], deps(), { seed: 7 });
    expect(again).toEqual(comparison);
  });
});

describe('compareRuns on noise', () => {
  it.each([
    ['identical outputs', 'run-a-again', 0],
    ['six random flips', 'run-a-noisy', 6],
  ])('%s raise nothing significant', async (_name, runId, flips) => {
    const c = await compareRuns(['run-a', runId], deps());
    const [pair] = c.pairs;
    expect(pair!.significant).toBe(false);
    expect(pair!.overall.significant).toBe(false);
    expect([...pair!.by_category, ...pair!.by_tag, ...pair!.by_complexity, ...pair!.stages].filter((g) => g.significant)).toEqual([]);
    expect(pair!.flipped.newly_failing.total + pair!.flipped.newly_passing.total).toBe(flips);
    expect(pair!.verdict).toMatch(/^No significant difference between B and A/);
  });

  it('identical runs: zero difference with an interval around it', async () => {
    const [pair] = (await compareRuns(['run-a', 'run-a-again'], deps())).pairs;
    expect([pair!.overall.difference, pair!.overall.p_value, pair!.score.difference!.estimate]).toEqual([0, 1, 0]);
    expect(pair!.minimum_detectable_effect.paired!).toBeGreaterThan(0);
  });
});

describe('compareRuns on different suites, several runs, caps and errors', () => {
  it('compares runs of different suites on their shared cases and says how many', async () => {
    const [pair] = (await compareRuns(['run-a', 'run-b-part'], deps())).pairs;
    expect(pair!.same_suite).toBe(false);
    expect(pair!.cases).toEqual({ baseline: 327, candidate: 200, shared: 200, only_baseline: 127, only_candidate: 0 });
    expect(pair!.overall.paired_cases).toBe(200);
    expect(pair!.verdict).toMatch(/\(on the 200 cases both runs scored\)$/);
  });

  it('compares three runs side by side against the first', async () => {
    const c = await compareRuns(['run-a', 'run-b', 'run-a-again'], deps(), { max_flipped: 3 });
    expect(c.runs.map((r) => r.label)).toEqual(['A', 'B', 'C']);
    expect(c.pairs.map((p) => [p.label, p.candidate_run_id])).toEqual([
      ['B vs A', 'run-b'],
      ['C vs A', 'run-a-again'],
    ]);
    expect(c.pairs[0]!.flipped.newly_failing.cases).toHaveLength(3);
    expect(c.pairs[0]!.flipped.newly_failing.total).toBe(49);
  });

  it.each([
    [['run-a', 'nope'], NotFoundError, /run "nope" does not exist/],
    [['run-live', 'run-a'], ConflictError, /run "run-live" is running/],
  ])('%j -> %s', async (ids, type, message) => {
    const error = await compareRuns(ids, deps()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect((error as Error).message).toMatch(message);
  });

  it('compares an unfinished run when asked (live alerts)', async () => {
    const c = await compareRuns(['run-a', 'run-live'], deps(), { allowUnfinished: true });
    expect(c.pairs[0]!.cases.shared).toBe(100);
  });

  it('rejects fewer than 2 or more than 10 runs', async () => {
    await expect(compareRuns(['run-a'], deps())).rejects.toThrow(RangeError);
    await expect(compareRuns(Array(11).fill('run-a'), deps())).rejects.toThrow(RangeError);
  });
});
