import { afterEach, describe, expect, it } from 'vitest';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { EmbeddedScorecardStore } from '../adapters/embedded/scorecardStore.js';
import { sampleScorecard } from '../ports/contracts/fixtures.js';
import { latencyPercentile } from '../domain/index.js';
import { mcnemarExact } from '../statistics/index.js';
import { ACCURACY_TEST, COST_TEST, LATENCY_TEST, evidenceFrom } from './evidenceFrom.js';
import { loadPairedOutcomes, type PairedOutcomes } from './pairedOutcomes.js';

interface Case {
  passed: [0 | 1, 0 | 1];
  latency: [number, number];
  cost?: [number, number];
  category?: number;
}

function paired(cases: Case[], categories = ['a']): PairedOutcomes {
  return {
    n: cases.length,
    baselinePassed: Uint8Array.from(cases, (c) => c.passed[0]),
    currentPassed: Uint8Array.from(cases, (c) => c.passed[1]),
    baselineLatencyMs: Float64Array.from(cases, (c) => c.latency[0]),
    currentLatencyMs: Float64Array.from(cases, (c) => c.latency[1]),
    baselineCostUsd: Float64Array.from(cases, (c) => c.cost?.[0] ?? 0.01),
    currentCostUsd: Float64Array.from(cases, (c) => c.cost?.[1] ?? 0.01),
    category: Uint32Array.from(cases, (c) => c.category ?? 0),
    categories,
  };
}

/** 400 cases, latencies 1000..1399 ms, all passing, $0.01 each, unless `change` says otherwise. */
function cases(change: (i: number) => Partial<Case> = () => ({})): Case[] {
  return Array.from({ length: 400 }, (_, i) => ({
    passed: [1, 1] as [1, 1],
    latency: [1000 + i, 1000 + i] as [number, number],
    ...change(i),
  }));
}

/** the platform's p95 (lib/domain/stats latencyPercentile) of one side's latencies */
const p95 = (side: 0 | 1, list: Case[]) =>
  latencyPercentile(
    list.map((c) => c.latency[side]),
    0.95,
  )!;
/** the baseline's p95 of 1000..1399 ms: the lower-rank sorted[floor(0.95 * 399)] = 1379 ms at the histogram's 1% resolution */
const BASE_P95 = p95(0, cases());

describe('evidenceFrom', () => {
  it('reports p95 with the one percentile definition (within 1% of the lower-rank order statistic)', () => {
    expect(Math.abs(BASE_P95 - 1379) / 1379).toBeLessThanOrEqual(0.01);
    expect(BASE_P95).not.toBe(1379.05); // not the type-7 interpolation any more
  });

  it('finds no change in identical runs (every p-value 1)', () => {
    const e = evidenceFrom(paired(cases()));
    expect(e).toEqual({
      paired_cases: 400,
      accuracy: { previous: 1, current: 1, p_value: 1, test: ACCURACY_TEST },
      categories: [{ category: 'a', previous: 1, current: 1, p_value_adjusted: 1 }],
      latency_p95: { previous: BASE_P95, current: BASE_P95, p_value: 1, test: LATENCY_TEST },
      cost_per_case: { previous: 0.01, current: 0.01, p_value: 1, test: COST_TEST },
    });
  });

  it('tests accuracy with exact McNemar on the discordant pairs and adjusts categories with Holm', () => {
    // category b: 12 cases newly failing, 1 newly passing; category a: 2 newly failing, 2 newly passing
    const e = evidenceFrom(
      paired(
        cases((i) => ({
          category: i < 200 ? 0 : 1,
          passed: i >= 200 && i < 212 ? [1, 0] : i === 212 ? [0, 1] : i < 2 ? [1, 0] : i < 4 ? [0, 1] : [1, 1],
        })),
        ['a', 'b'],
      ),
    );
    expect(e.accuracy).toEqual({ previous: 397 / 400, current: 386 / 400, p_value: mcnemarExact(14, 3).p_value, test: ACCURACY_TEST });
    const pa = mcnemarExact(2, 2).p_value;
    const pb = mcnemarExact(12, 1).p_value;
    expect(e.categories).toEqual([
      { category: 'a', previous: 198 / 200, current: 198 / 200, p_value_adjusted: Math.min(1, Math.max(2 * pb, pa)) },
      { category: 'b', previous: 199 / 200, current: 188 / 200, p_value_adjusted: 2 * pb },
    ]);
  });

  it.each<[string, (i: number) => Partial<Case>, number, boolean]>([
    ['everything twice as slow', (i) => ({ latency: [1000 + i, 2 * (1000 + i)] }), 2758, true],
    [
      'a slow tail: the slowest 10% three times slower',
      (i) => ({ latency: [1000 + i, i >= 360 ? 3 * (1000 + i) : 1000 + i] }),
      // sorted current: 1000..1359 then 3 x 1360..1399; rank 379 is 3 x 1379
      4137,
      true,
    ],
    ['small jitter around the same values', (i) => ({ latency: [1000 + i, 1000 + i + (i % 2 ? 3 : -3)] }), 1376, false],
  ])('tests the p95 latency on the paired upper tail: %s', (_label, change, lowerRank, significant) => {
    const list = cases(change);
    const e = evidenceFrom(paired(list));
    expect([e.latency_p95?.previous, e.latency_p95?.current, e.latency_p95!.p_value < 0.05]).toEqual([BASE_P95, p95(1, list), significant]);
    expect(Math.abs(e.latency_p95!.current - lowerRank) / lowerRank).toBeLessThanOrEqual(0.01);
  });

  it("compares costs per case with Welch's t, and leaves latency out when the baseline has none (offline scoring)", () => {
    const e = evidenceFrom(paired(cases((i) => ({ latency: [0, 0], cost: [0.01 + (i % 10) / 1e4, 0.02 + (i % 10) / 1e4] }))));
    expect([
      e.latency_p95,
      e.cost_per_case?.previous.toFixed(5),
      e.cost_per_case?.current.toFixed(5),
      e.cost_per_case!.p_value < 1e-9,
    ]).toEqual([null, '0.01045', '0.02045', true]);
  });

  it('has no evidence without paired cases', () => {
    expect(evidenceFrom(paired([]))).toEqual({ paired_cases: 0, accuracy: null, categories: [], latency_p95: null, cost_per_case: null });
  });
});

describe('loadPairedOutcomes', () => {
  const temps = new TempDatabases();
  afterEach(() => temps.closeAll());

  it('pairs the cases both runs scored, by id, with their category (none filed as "(none)")', async () => {
    const { db, changeLog } = temps.open();
    const store = new EmbeddedScorecardStore(db, changeLog);
    await store.upsertScorecards([
      sampleScorecard('base', 'c1', { category: 'refunds' }),
      sampleScorecard('base', 'c2', { passed: false, category: null }),
      sampleScorecard('base', 'only-base'),
      sampleScorecard('cur', 'c2', { category: null }),
      sampleScorecard('cur', 'c1', { passed: false, category: 'refunds' }),
      sampleScorecard('cur', 'only-cur'),
    ]);
    const p = await loadPairedOutcomes(store, 'base', 'cur');
    expect([p.n, [...p.baselinePassed], [...p.currentPassed], [...p.category].map((i) => p.categories[i])]).toEqual([
      2,
      [0, 1],
      [1, 0],
      ['(none)', 'refunds'],
    ]);
  });
});
