/**
 * The soak benchmark's verdict on one run (pure, so its test can show each count going up): lost, duplicated,
 * stuck, and healthy cases scored differently from the fault-free run of the same cases.
 */
import { TERMINAL_RUN_STATUSES, type RunStatus, type Scorecard } from '../lib/domain/index.js';

export interface SoakRunStats {
  completed: number;
  passed: number;
  not_scored?: number;
  /** scored cases per category (not-scored cases are left out of the breakdowns) */
  by_category?: Record<string, { completed: number }>;
}

export interface SoakRunInput {
  status: RunStatus;
  stats: SoakRunStats | null;
  /** every scorecard the run lists */
  cards: readonly Scorecard[];
}

export interface SoakRunCheck {
  /** cases of the suite without a scorecard (+1 when the statistics count fewer cases than are stored) */
  lost: number;
  /** case/trial keys with more than one scorecard (+1 when the statistics count more than are stored) */
  duplicated: number;
  /** 1 when the run is not in a terminal state */
  stuck: number;
  /** healthy cases (all their target calls succeeded) whose verdict differs from the fault-free run's */
  differing: string[];
  /** healthy cases compared */
  healthy: number;
  /** the stored scorecards recounted (one per key) */
  recount: { completed: number; passed: number; not_scored: number };
}

/** What a model is judged on: equal verdicts of a case in two runs mean the infrastructure moved nothing. */
export function verdictOf(card: Scorecard): string {
  return JSON.stringify({
    passed: card.overall_passed,
    score: card.overall_score,
    error_code: card.error_code ?? null,
    stages: Object.entries(card.stages)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, s]) => [name, s.status, s.score ?? null]),
  });
}

/**
 * Checks a run of `caseIds` (one trial) against `reference` (the fault-free run's scorecards by case id);
 * `faulted(caseId)` says whether any target call of the case failed in this run (those are not compared).
 */
export function checkSoakRun(
  run: SoakRunInput,
  caseIds: readonly string[],
  reference: ReadonlyMap<string, Scorecard>,
  faulted: (caseId: string) => boolean,
): SoakRunCheck {
  const byKey = new Map<string, Scorecard[]>();
  for (const c of run.cards) {
    const key = `${c.test_case_id}|${c.trial ?? 1}`;
    byKey.set(key, [...(byKey.get(key) ?? []), c]);
  }
  let lost = caseIds.filter((id) => !byKey.has(`${id}|1`)).length;
  let duplicated = [...byKey.values()].filter((list) => list.length > 1).length;
  // statistics against a recount of the stored scorecards: more = a case counted twice, fewer = a case the statistics lost
  const once = [...byKey.values()].map((l) => l[0]!);
  const recount = {
    completed: once.length,
    passed: once.filter((c) => c.overall_passed).length,
    not_scored: once.filter((c) => c.outcome === 'not_scored').length,
  };
  const byCategory = new Map<string, number>();
  for (const c of once) if (c.outcome !== 'not_scored') byCategory.set(c.category ?? '', (byCategory.get(c.category ?? '') ?? 0) + 1);
  const s = run.stats;
  // each figure of the statistics against the same figure recounted from the stored scorecards
  const pairs: Array<[counted: number, recounted: number]> = [
    [s?.completed ?? 0, recount.completed],
    [s?.passed ?? 0, recount.passed],
    [s?.not_scored ?? 0, recount.not_scored],
  ];
  for (const name of new Set([...Object.keys(s?.by_category ?? {}), ...byCategory.keys()])) {
    pairs.push([s?.by_category?.[name]?.completed ?? 0, byCategory.get(name) ?? 0]);
  }
  if (pairs.some(([counted, recounted]) => counted > recounted)) duplicated++;
  else if (pairs.some(([counted, recounted]) => counted < recounted)) lost++;
  const differing: string[] = [];
  let healthy = 0;
  for (const [id, ref] of reference) {
    const card = byKey.get(`${id}|1`)?.[0];
    if (!card || faulted(id)) continue;
    healthy++;
    if (verdictOf(card) !== verdictOf(ref)) differing.push(id);
  }
  return { lost, duplicated, stuck: TERMINAL_RUN_STATUSES.has(run.status) ? 0 : 1, differing, healthy, recount };
}
