import { STAGE_NAMES, type Run, type RunSummary } from '../domain/index.js';
import { RunningSummary, summarize, totalInterval } from '../statistics/index.js';
import { criterionMeans } from './criterionDeltas.js';
import { latencyPercentileInterval } from './latencyPercentiles.js';
import { meanRate } from './pairedMeans.js';
import { rateOf } from './passRateDelta.js';
import type { RunCases } from './runCases.js';

/** Wilson over the cases when every value is 0 or 1, else the mean of the per-case fractions (t interval). */
function rateOfFractions(fractions: readonly number[], confidence: number): RunSummary['pass_rate'] {
  let passed = 0;
  let binary = true;
  const values = new RunningSummary();
  for (const f of fractions) {
    if (f === 1) passed++;
    else if (f !== 0) binary = false;
    values.add(f);
  }
  return binary ? rateOf(passed, fractions.length, confidence) : meanRate(values, confidence);
}

/**
 * One run's own figures for the side-by-side table: pass rate (Wilson), mean score, stage pass rates (over the
 * cases where the stage ran: not skipped), latency percentiles with order-statistic intervals, tokens, total
 * cost with a t interval, and accuracy per dollar (= passed cases per USD). `cases` holds the scored cases only;
 * `notScored` (infrastructure failures, left out of every figure) gives the run's infrastructure-failure rate.
 *
 * Trials: the pass rate is pass@1, the mean over cases of each case's pass fraction (Wilson when every case's trials
 * agree, else a t interval over the per-case fractions); mean score and stage rates are means of per-case means;
 * latency percentiles and the mean latency are over every scored trial (the run statistics' definition, lib/domain
 * stats `latencyPercentile`, so the same p95 appears on the run page); cost total is the whole run's, per case the
 * mean per scored trial; accuracy per dollar = passed trials per USD.
 */
export function summarizeRun(run: Run, cases: RunCases, label: string, confidence: number, notScored = 0): RunSummary {
  const n = cases.size;
  const fractions: number[] = new Array(n);
  let trialsPassed = 0;
  let trials = 0;
  let scoreSum = 0;
  let latencySum = 0;
  for (let i = 0; i < n; i++) {
    fractions[i] = cases.passFraction(i);
    trialsPassed += cases.passes[i] as number;
    trials += cases.trials[i] as number;
    scoreSum += cases.meanScore(i);
    latencySum += cases.latency[i] as number;
  }
  const stages = STAGE_NAMES.map((stage, s) => {
    const ran: number[] = [];
    for (let i = 0; i < n; i++) {
      const f = cases.stageFraction(i, s);
      if (f >= 0) ran.push(f);
    }
    return { stage, rate: rateOfFractions(ran, confidence) };
  }).filter((s) => s.rate.n > 0);
  const percentile = (q: number) => (n === 0 ? null : latencyPercentileInterval(cases.latencyHistogram, q, confidence));
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
    pass_rate: rateOfFractions(fractions, confidence),
    not_scored: notScored,
    infrastructure_failure_rate: n + notScored > 0 ? notScored / (n + notScored) : null,
    mean_score: n === 0 ? null : scoreSum / n,
    stages,
    latency_ms: { mean: n === 0 ? null : latencySum / trials, p50: percentile(0.5), p95: percentile(0.95), p99: percentile(0.99) },
    tokens: { input: cases.inputTokens, output: cases.outputTokens },
    // one trial a case: the mean of the per-case costs, as before; with trials: the whole run's cost per scored trial
    cost_usd: { total, per_case: n === 0 ? null : trials === n ? cost.mean : total.estimate / trials },
    accuracy_per_dollar: total.estimate > 0 ? trialsPassed / total.estimate : null,
    criteria: criterionMeans(cases),
  };
}
