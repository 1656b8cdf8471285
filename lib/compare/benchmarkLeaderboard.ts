import { latencyPercentile, type KeyedCaseOutcome, type Leaderboard, type LeaderboardEntry } from '../domain/index.js';
import { DEFAULT_CONFIDENCE, wilsonInterval } from '../statistics/index.js';

/** One finished task run of a leaderboard participant and its scored per-case outcomes. */
export interface LeaderboardTaskRun {
  /** a client id, or the target id when the task names no client */
  participant: string;
  kind: 'client' | 'target';
  target_id: string;
  task_id: string;
  run_id: string;
  /** when the run finished (ISO); orders runs that scored equally many cases (later wins), absent counts as earliest */
  completed_at?: string | null;
  /** each case's outcome, keyed by `test_case_id` (the trial key after trial 1), so runs can be matched case by case */
  outcomes: Iterable<KeyedCaseOutcome>;
}

/**
 * A participant's runs, the one whose outcome counts first: most scored cases (the most complete run), then the one
 * finished later, then the later task in the benchmark.
 */
function byPreference(runs: readonly { run: LeaderboardTaskRun; index: number; outcomes: KeyedCaseOutcome[] }[]) {
  return [...runs].sort(
    (a, b) =>
      b.outcomes.length - a.outcomes.length || (b.run.completed_at ?? '').localeCompare(a.run.completed_at ?? '') || b.index - a.index,
  );
}

/** The participants tied for the best value (none when no participant has one). */
function best(entries: readonly LeaderboardEntry[], value: (e: LeaderboardEntry) => number | null, higherIsBetter: boolean): string[] {
  const known = entries.flatMap((e) => {
    const v = value(e);
    return v === null || !Number.isFinite(v) ? [] : [{ participant: e.participant, v }];
  });
  if (known.length === 0) return [];
  const top = higherIsBetter ? Math.max(...known.map((k) => k.v)) : Math.min(...known.map((k) => k.v));
  return known.filter((k) => k.v === top).map((k) => k.participant);
}

/**
 * The leaderboard of a benchmark run over its participants (clients, or targets): per participant, over the scored
 * cases of all its task runs, the pass rate with a Wilson interval, latency p50/p95 by the platform's one percentile
 * definition (`latencyPercentile`), cost, cost per case and passes per dollar; then the best-accuracy (highest pass
 * rate), best-latency (lowest p50) and best-cost-efficiency (most passes per dollar) badges, each to every participant
 * tied for the best value. Entries are ordered by pass rate, best first (ties by participant).
 *
 * Each case counts once per participant: when several of its task runs scored the same case (a smoke sample and the
 * full run on the same target), the outcome of its most complete run counts (most scored cases; ties: the run that
 * finished later, then the later task), so `scored`, `passed`, the pass rate and the latencies are over distinct
 * cases. Cost is money actually spent, so `cost_usd` sums every scored evaluation of every run (the smoke run's
 * cases included), `cost_per_case_usd` is that over the evaluations that reported a cost (what one evaluation costs),
 * and passes per dollar is the distinct cases passed over everything spent (`passed / cost_usd`).
 */
export function benchmarkLeaderboard(taskRuns: readonly LeaderboardTaskRun[], confidence = DEFAULT_CONFIDENCE): Leaderboard {
  const groups = new Map<string, { first: LeaderboardTaskRun; runs: LeaderboardTaskRun[] }>();
  for (const t of taskRuns) {
    const key = `${t.kind}:${t.participant}`;
    const group = groups.get(key);
    if (group) group.runs.push(t);
    else groups.set(key, { first: t, runs: [t] });
  }
  const entries: LeaderboardEntry[] = [...groups.values()].map(({ first, runs }) => {
    let cost = 0;
    let costed = 0;
    const read = runs.map((run, index) => ({ run, index, outcomes: [...run.outcomes].filter((o) => o.passed !== null) }));
    for (const { outcomes } of read)
      for (const o of outcomes)
        if (o.cost_usd !== undefined) {
          cost += o.cost_usd;
          costed++;
        }
    const counted = new Map<string, KeyedCaseOutcome>();
    for (const { outcomes } of byPreference(read))
      for (const o of outcomes) if (!counted.has(o.test_case_id)) counted.set(o.test_case_id, o);
    const scored = counted.size;
    let passed = 0;
    const latencies: number[] = [];
    for (const o of counted.values()) {
      if (o.passed) passed++;
      if (o.latency_ms !== undefined) latencies.push(o.latency_ms);
    }
    const interval = wilsonInterval(passed, scored, confidence);
    const cost_usd = costed > 0 ? cost : null;
    return {
      participant: first.participant,
      kind: first.kind,
      target_id: first.target_id,
      task_ids: runs.map((r) => r.task_id),
      run_ids: runs.map((r) => r.run_id),
      scored,
      passed,
      pass_rate: { estimate: scored > 0 ? interval.estimate : null, lower: interval.lower, upper: interval.upper },
      latency_p50_ms: latencyPercentile(latencies, 0.5),
      latency_p95_ms: latencyPercentile(latencies, 0.95),
      cost_usd,
      cost_per_case_usd: cost_usd !== null && costed > 0 ? cost_usd / costed : null,
      accuracy_per_dollar: cost_usd !== null && cost_usd > 0 ? passed / cost_usd : null,
      badges: [],
    };
  });
  entries.sort(
    (a, b) =>
      (b.pass_rate.estimate ?? -1) - (a.pass_rate.estimate ?? -1) ||
      (a.participant < b.participant ? -1 : a.participant > b.participant ? 1 : 0),
  );
  const best_accuracy = best(entries, (e) => e.pass_rate.estimate, true);
  const best_latency = best(entries, (e) => e.latency_p50_ms, false);
  const best_cost_efficiency = best(entries, (e) => e.accuracy_per_dollar, true);
  for (const e of entries) {
    if (best_accuracy.includes(e.participant)) e.badges.push('best_accuracy');
    if (best_latency.includes(e.participant)) e.badges.push('best_latency');
    if (best_cost_efficiency.includes(e.participant)) e.badges.push('best_cost_efficiency');
  }
  return { confidence, entries, best_accuracy, best_latency, best_cost_efficiency };
}
