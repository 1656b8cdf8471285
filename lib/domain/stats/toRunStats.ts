import { STAGE_NAMES } from '../stageResult.js';
import { type RunStats } from '../runStats.js';
import { LogHistogram } from './logHistogram.js';
import { efficiencyStatsOfSums } from '../efficiency.js';
import type { Counts, RunStatsState } from './runStatsState.js';

const nonNegative = (value: number) => Math.max(0, value);
const ratio = (part: number, whole: number) => (whole > 0 ? Math.min(1, nonNegative(part) / whole) : null);

function countsOut(record: Record<string, Counts>): Record<string, Counts> {
  return Object.fromEntries(
    Object.entries(record)
      .filter(([, c]) => c.completed > 0)
      .map(([key, c]) => [key, { completed: c.completed, passed: Math.min(c.completed, nonNegative(c.passed)) }]),
  );
}

/**
 * The RunStats document of a state. progress_pct = completed / total · 100, capped at 100 (0 when total is 0);
 * rates and means are null when nothing was counted; latency percentiles come from the log histogram (within
 * 1% of the exact lower-rank percentile). Counters are clamped at 0 so even an inconsistent state gives a valid
 * document. `now` becomes updated_at.
 */
export function toRunStats(runId: string, state: RunStatsState, total: number, now: Date | string): RunStats {
  return runStatsOf(runId, state, LogHistogram.fromState(state.latency), total, now);
}

/** `toRunStats` for a caller that already holds the state's latency histogram (RunStatsAccumulator). */
export function runStatsOf(runId: string, state: RunStatsState, latency: LogHistogram, total: number, now: Date | string): RunStats {
  const completed = nonNegative(state.completed);
  const notScored = Math.min(completed, nonNegative(state.not_scored ?? 0));
  const scored = completed - notScored;
  const passed = Math.min(scored, nonNegative(state.passed));
  const safeTotal = Number.isFinite(total) ? Math.max(0, Math.floor(total)) : 0;
  const latencyCount = latency.count();
  const [p50, p95, p99] = latency.quantiles([0.5, 0.95, 0.99]);
  return {
    run_id: runId,
    total: safeTotal,
    completed,
    scored,
    passed,
    failed: scored - passed,
    not_scored: notScored,
    progress_pct: safeTotal > 0 ? Math.min(100, (completed / safeTotal) * 100) : 0,
    pass_rate: ratio(passed, scored),
    infrastructure_failure_rate: ratio(notScored, completed),
    mean_score: scored > 0 ? Math.min(1, nonNegative(state.score_sum_e9) / 1e9 / scored) : null,
    stages: Object.fromEntries(
      STAGE_NAMES.map((stage) => {
        const { ran, passed: stagePassed } = state.stages[stage];
        return [stage, { ran: nonNegative(ran), passed: nonNegative(stagePassed), pass_rate: ratio(stagePassed, ran) }];
      }),
    ),
    latency_ms: {
      p50: p50 ?? null,
      p95: p95 ?? null,
      p99: p99 ?? null,
      mean: latencyCount > 0 ? nonNegative(state.latency_sum_us) / 1000 / latencyCount : null,
    },
    tokens: { input: nonNegative(state.tokens.input), output: nonNegative(state.tokens.output) },
    cost_usd: nonNegative(state.cost_e9_usd) / 1e9,
    by_category: countsOut(state.by_category),
    by_tag: countsOut(state.by_tag),
    by_complexity: countsOut(state.by_complexity),
    error_codes: Object.fromEntries(Object.entries(state.error_codes).filter(([, n]) => n > 0)),
    client_versions: Object.entries(state.client_versions)
      .filter(([, n]) => n > 0)
      .map(([version]) => version)
      .sort(),
    ...(state.efficiency ? { efficiency: efficiencyStatsOfSums(state.efficiency) } : {}),
    updated_at: typeof now === 'string' ? now : now.toISOString(),
  };
}
