import { describe, expect, it } from 'vitest';
import { benchmarkLeaderboard } from './benchmarkLeaderboard.js';
import { bucketValue, bucketIndex } from '../domain/stats/logHistogram.js';
import { wilsonInterval } from '../statistics/index.js';

const at = (ms: number) => bucketValue(bucketIndex(ms)); // the histogram's resolution of one latency
let nextCase = 0; // distinct case ids unless a test names them
const cases = (spec: [passed: boolean | null, latency: number, cost: number][]) =>
  spec.map(([passed, latency_ms, cost_usd]) => ({ test_case_id: `case-${nextCase++}`, passed, latency_ms, cost_usd }));
/** `n` outcomes on cases c0..c(n-1), each from `outcome(i)`. */
const numbered = (n: number, outcome: (i: number) => { passed: boolean | null; latency_ms: number; cost_usd: number }) =>
  Array.from({ length: n }, (_, i) => ({ test_case_id: `c${i}`, ...outcome(i) }));

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

  it("counts a case once per participant: smoke 40 within full 400 counts 400 with the full run's outcomes; cost stays everything spent", () => {
    const full = {
      participant: 'simulated-model-a',
      kind: 'target' as const,
      target_id: 'simulated-model-a',
      task_id: 'full',
      run_id: 'r-full',
      completed_at: '2026-11-26T10:00:00.000Z',
      // 300 of 400 pass (every fourth case fails), 500 ms, $0.01 each
      outcomes: numbered(400, (i) => ({ passed: i % 4 !== 0, latency_ms: 500, cost_usd: 0.01 })),
    };
    // the smoke sample: the first 40 of the same cases, all passed, 100 ms, $0.02 each; finished later but less complete
    const smoke = {
      ...full,
      task_id: 'smoke',
      run_id: 'r-smoke',
      completed_at: '2026-11-26T11:00:00.000Z',
      outcomes: numbered(40, () => ({ passed: true, latency_ms: 100, cost_usd: 0.02 })),
    };
    const [entry] = benchmarkLeaderboard([smoke, full]).entries;
    // 400 distinct cases (not 440), 300 passed (the full run's outcomes, not 310 with the smoke run's 10 extra passes)
    expect(entry).toMatchObject({ task_ids: ['smoke', 'full'], run_ids: ['r-smoke', 'r-full'], scored: 400, passed: 300 });
    expect(entry!.pass_rate.estimate).toBe(0.75);
    const w = wilsonInterval(300, 400);
    expect([entry!.pass_rate.lower, entry!.pass_rate.upper]).toEqual([w.lower, w.upper]);
    // Wilson 95% for 300/400 by hand: centre (0.75 + z²/800) / (1 + z²/400) = 0.74762, half 0.04230
    expect(entry!.pass_rate.lower).toBeCloseTo(0.7053, 4);
    expect(entry!.pass_rate.upper).toBeCloseTo(0.7899, 4);
    // latencies of the counted (full-run) outcomes only: all 500 ms
    expect(entry!.latency_p50_ms).toBe(at(500));
    expect(entry!.latency_p95_ms).toBe(at(500));
    // money spent: 400 x $0.01 + 40 x $0.02 = $4.80 over 440 evaluations; passes per dollar 300 / 4.80 = 62.5
    expect(entry!.cost_usd).toBeCloseTo(4.8, 10);
    expect(entry!.cost_per_case_usd).toBeCloseTo(4.8 / 440, 12);
    expect(entry!.accuracy_per_dollar).toBeCloseTo(62.5, 9);
  });

  it('between runs that scored equally many cases the later finished counts; a case only one run scored counts from it', () => {
    const base = { participant: 'client-1', kind: 'client' as const, target_id: 't', task_id: 'x', run_id: 'r' };
    const board = benchmarkLeaderboard([
      // c0 not scored here (an infrastructure fault): the other run's outcome counts for it
      {
        ...base,
        task_id: 'late',
        run_id: 'r-late',
        completed_at: '2026-11-26T12:00:00.000Z',
        outcomes: numbered(3, (i) => ({ passed: i === 0 ? null : true, latency_ms: 10, cost_usd: 0.1 })),
      },
      {
        ...base,
        task_id: 'early',
        run_id: 'r-early',
        completed_at: '2026-11-26T09:00:00.000Z',
        outcomes: numbered(2, () => ({ passed: false, latency_ms: 20, cost_usd: 0.1 })),
      },
      {
        ...base,
        task_id: 'unknown-time',
        run_id: 'r-unknown',
        outcomes: numbered(2, () => ({ passed: false, latency_ms: 30, cost_usd: 0.1 })),
      },
    ]);
    const [entry] = board.entries;
    // c0 from `early` (failed; scored there, the unknown-time run counts as earliest), c1 and c2 from `late` (passed)
    expect(entry).toMatchObject({ scored: 3, passed: 2 });
    expect(entry!.latency_p50_ms).toBe(at(10)); // sorted [10, 10, 20]
    expect(entry!.latency_p95_ms).toBe(at(10)); // floor(0.95 x 2) = 1
    expect(entry!.cost_usd).toBeCloseTo(0.6, 12); // the six scored evaluations, the not-scored one left out
    expect(entry!.accuracy_per_dollar).toBeCloseTo(2 / 0.6, 9);
  });
});
