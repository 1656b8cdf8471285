import { describe, expect, it } from 'vitest';
import { benchmarkLeaderboard } from './benchmarkLeaderboard.js';
import { bucketValue, bucketIndex } from '../domain/stats/logHistogram.js';

const at = (ms: number) => bucketValue(bucketIndex(ms)); // the histogram's resolution of one latency
const cases = (spec: [passed: boolean | null, latency: number, cost: number][]) =>
  spec.map(([passed, latency_ms, cost_usd]) => ({ passed, latency_ms, cost_usd }));

describe('benchmarkLeaderboard', () => {
  it('computes pass rate with a Wilson interval, p50/p95, cost, passes per dollar and badges as by hand', () => {
    const board = benchmarkLeaderboard([
      // model-a over two tasks: 3 of 4 scored pass (a not-scored case is left out)
      {
        participant: 'model-a',
        kind: 'target',
        target_id: 'model-a',
        task_id: 't1',
        run_id: 'r1',
        outcomes: cases([
          [true, 100, 0.01],
          [true, 200, 0.01],
          [null, 9_999, 5],
        ]),
      },
      {
        participant: 'model-a',
        kind: 'target',
        target_id: 'model-a',
        task_id: 't2',
        run_id: 'r2',
        outcomes: cases([
          [false, 300, 0.01],
          [true, 400, 0.01],
        ]),
      },
      // model-b: 1 of 2 pass, fast and cheap
      {
        participant: 'model-b',
        kind: 'target',
        target_id: 'model-b',
        task_id: 't3',
        run_id: 'r3',
        outcomes: cases([
          [true, 50, 0.001],
          [false, 60, 0.001],
        ]),
      },
    ]);
    const [a, b] = board.entries;
    expect(a!.participant).toBe('model-a');
    expect(a).toMatchObject({ task_ids: ['t1', 't2'], run_ids: ['r1', 'r2'], scored: 4, passed: 3 });
    // Wilson 95%: p = 0.75, n = 4, z = 1.959964: centre (0.75 + z²/8) / (1 + z²/4), half z/(1 + z²/4)·sqrt(p(1-p)/4 + z²/64)
    const z = 1.959963984540054;
    const centre = (0.75 + (z * z) / 8) / (1 + (z * z) / 4);
    const half = (z / (1 + (z * z) / 4)) * Math.sqrt((0.75 * 0.25) / 4 + (z * z) / 64);
    expect(a!.pass_rate.estimate).toBe(0.75);
    expect(a!.pass_rate.lower).toBeCloseTo(centre - half, 12);
    expect(a!.pass_rate.upper).toBeCloseTo(centre + half, 12);
    expect(a!.pass_rate.lower).toBeCloseTo(0.3006, 4);
    // lower-rank order statistic: sorted [100, 200, 300, 400], p50 = sorted[floor(0.5·3)] = 200, p95 = sorted[floor(0.95·3)] = 300
    expect(a!.latency_p50_ms).toBe(at(200));
    expect(a!.latency_p95_ms).toBe(at(300));
    expect(Math.abs(a!.latency_p50_ms! - 200)).toBeLessThanOrEqual(2);
    expect(a!.cost_usd).toBeCloseTo(0.04, 12);
    expect(a!.cost_per_case_usd).toBeCloseTo(0.01, 12);
    expect(a!.accuracy_per_dollar).toBeCloseTo(75, 9); // 3 passes / $0.04
    expect(b).toMatchObject({ scored: 2, passed: 1 });
    expect(b!.pass_rate.estimate).toBe(0.5);
    expect(b!.latency_p50_ms).toBe(at(50)); // sorted [50, 60], floor(0.5·1) = 0
    expect(b!.latency_p95_ms).toBe(at(50)); // floor(0.95·1) = 0
    expect(b!.accuracy_per_dollar).toBeCloseTo(500, 9); // 1 pass / $0.002
    expect(a!.badges).toEqual(['best_accuracy']);
    expect(b!.badges).toEqual(['best_latency', 'best_cost_efficiency']);
    expect(board).toMatchObject({
      confidence: 0.95,
      best_accuracy: ['model-a'],
      best_latency: ['model-b'],
      best_cost_efficiency: ['model-b'],
    });
  });

  it('gives a badge to every participant tied for the best, none without data; zero cost has no passes per dollar', () => {
    const board = benchmarkLeaderboard([
      { participant: 'c1', kind: 'client', target_id: 't', task_id: 'a', run_id: 'r1', outcomes: cases([[true, 100, 0]]) },
      { participant: 'c2', kind: 'client', target_id: 't', task_id: 'b', run_id: 'r2', outcomes: cases([[true, 100, 0]]) },
      { participant: 'c3', kind: 'client', target_id: 't', task_id: 'c', run_id: 'r3', outcomes: cases([[null, 10, 0]]) },
    ]);
    expect(board.best_accuracy).toEqual(['c1', 'c2']);
    expect(board.best_latency).toEqual(['c1', 'c2']);
    expect(board.best_cost_efficiency).toEqual([]);
    const c3 = board.entries.find((e) => e.participant === 'c3')!;
    expect(c3).toMatchObject({
      scored: 0,
      pass_rate: { estimate: null, lower: 0, upper: 1 },
      latency_p50_ms: null,
      cost_usd: null,
      badges: [],
    });
    expect(board.entries.map((e) => e.participant)).toEqual(['c1', 'c2', 'c3']);
    expect(board.entries[0]!.accuracy_per_dollar).toBeNull();
  });
});
