import { STAGE_NAMES, type Run, type RunSummary } from '../domain/index.js';
import { percentileInterval, summarize, totalInterval } from '../statistics/index.js';
import { rateOf } from './passRateDelta.js';
import { STAGE_CODE, type RunCases } from './runCases.js';

/**
 * One run's own figures for the side-by-side table: pass rate (Wilson), mean score, stage pass rates (over the
 * cases where the stage ran: not skipped), latency percentiles with order-statistic intervals, tokens, total
 * cost with a t interval, and accuracy per dollar (= passed cases per USD). `cases` holds the scored cases only;
 * `notScored` (infrastructure failures, left out of every figure) gives the run's infrastructure-failure rate.
 */
export function summarizeRun(run: Run, cases: RunCases, label: string, confidence: number, notScored = 0): RunSummary {
  const n = cases.size;
  let passed = 0;
  let scoreSum = 0;
  for (let i = 0; i < n; i++) {
    passed += cases.passed[i] as number;
    scoreSum += cases.score[i] as number;
  }
  const stages = STAGE_NAMES.map((stage, s) => {
    let ran = 0;
    let stagePassed = 0;
    for (let i = 0; i < n; i++) {
      const code = cases.stage(i, s);
      if (code !== STAGE_CODE.skipped) ran++;
      if (code === STAGE_CODE.passed) stagePassed++;
    }
    return { stage, rate: rateOf(stagePassed, ran, confidence) };
  }).filter((s) => s.rate.n > 0);
  const latency = cases.latency.subarray(0, n).slice().sort();
  const percentile = (q: number) => (n === 0 ? null : percentileInterval(latency, q, { confidence, sorted: true }));
  const cost = summarize(cases.cost.subarray(0, n));
  const total = totalInterval(cost, { confidence, nonNegative: true });
  return {
    label,
    run_id: run.id,
    suite_id: run.suite_id,
    target_id: run.target_id,
    client_id: run.client_id,
    client_versions: [...cases.clientVersions].sort(),
    completed_at: run.completed_at,
    pass_rate: rateOf(passed, n, confidence),
    not_scored: notScored,
    infrastructure_failure_rate: n + notScored > 0 ? notScored / (n + notScored) : null,
    mean_score: n === 0 ? null : scoreSum / n,
    stages,
    latency_ms: { mean: n === 0 ? null : summarize(latency).mean, p50: percentile(0.5), p95: percentile(0.95), p99: percentile(0.99) },
    tokens: { input: cases.inputTokens, output: cases.outputTokens },
    cost_usd: { total, per_case: n === 0 ? null : cost.mean },
    accuracy_per_dollar: total.estimate > 0 ? passed / total.estimate : null,
  };
}
