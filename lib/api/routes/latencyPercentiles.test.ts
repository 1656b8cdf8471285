import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveEvaluationConfig, type Scorecard } from '../../domain/index.js';
import { retailCards, storeRun } from '../../compare/retail.test-helpers.js';
import { startTestApi, type TestApi } from './apiTestPlatform.test-helpers.js';

/**
 * Issue 15: the same run shows the same latency percentiles everywhere. Each run here has 3 trials of 120 retail
 * cases with spread-out latencies; its statistics are folded by the store (the live fold's log histogram), and the
 * run page, the run list, the trends and the comparison must all report that number.
 */
let api: TestApi;
const latencies = new Map<string, number[]>();

function withTrials(cards: readonly Scorecard[], runId: string, seed: number): Scorecard[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out = cards.flatMap((c) =>
    [1, 2, 3].map((trial) => ({ ...c, trial, latency_ms: Math.round(c.latency_ms * (0.5 + 1.5 * next())) })),
  );
  latencies.set(
    runId,
    out.map((c) => c.latency_ms),
  );
  return out;
}

beforeAll(async () => {
  api = await startTestApi();
  const { stores } = api.platform.services;
  const [a, b] = [(await retailCards('model-a')).slice(0, 120), (await retailCards('model-b')).slice(0, 120)];
  const runs: Array<[string, Scorecard[], string]> = [
    ['lat-a', withTrials(a, 'lat-a', 5), '2026-10-12T02:00:00.000Z'],
    ['lat-b', withTrials(b, 'lat-b', 9), '2026-10-13T02:00:00.000Z'],
  ];
  for (const [id, cards, at] of runs) {
    await storeRun(stores, id, cards, {
      total_cases: 120,
      created_at: at,
      completed_at: at,
      client_id: 'acme',
      config: resolveEvaluationConfig({ profile: 'ci', trials: 3 }),
    });
    await stores.runStats.recomputeRunStats(id, cards.length);
  }
}, 120_000);

afterAll(async () => {
  await api?.stop();
});

describe('latency percentiles: one definition everywhere', () => {
  it("the run page's p95 (and p50, p99) equals the comparison's, the run list's and the trends' for the same run", async () => {
    const comparison = (await api.call('POST', 'v1/compare', { body: { run_ids: ['lat-a', 'lat-b'], options: { max_flipped: 0 } } })).json;
    const list = (await api.call('GET', 'v1/runs?client_id=acme')).json.items as Array<{
      id: string;
      headline: { p95_latency_ms: number };
    }>;
    const trends = (await api.call('GET', 'v1/trends?from=2026-10-12&to=2026-10-13')).json;
    const points = trends.series[0].points as Array<{ date: string; p95_latency_ms: number }>;
    for (const [k, id] of ['lat-a', 'lat-b'].entries()) {
      const page = await api.call('GET', `v1/runs/${id}`);
      expect(page.status).toBe(200);
      const stats = page.json.stats.latency_ms as { p50: number; p95: number; p99: number };
      const summary = comparison.runs[k].latency_ms;
      expect([summary.p50.estimate, summary.p95.estimate, summary.p99.estimate]).toEqual([stats.p50, stats.p95, stats.p99]);
      expect(list.find((r) => r.id === id)?.headline.p95_latency_ms).toBe(stats.p95);
      expect(points[k]?.p95_latency_ms).toBe(stats.p95);
      // the definition: the lower-rank order statistic of every scored trial's latency, within the histogram's 1%
      const sorted = [...latencies.get(id)!].sort((x, y) => x - y);
      const lowerRank = sorted[Math.floor(0.95 * (sorted.length - 1))]!;
      expect(Math.abs(stats.p95 - lowerRank) / lowerRank).toBeLessThanOrEqual(0.01);
      expect(summary.p95.lower).toBeLessThanOrEqual(summary.p95.estimate);
      expect(summary.p95.upper).toBeGreaterThanOrEqual(summary.p95.estimate);
    }
  });
});
