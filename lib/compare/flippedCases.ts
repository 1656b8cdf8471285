import type { FlippedCase, Scorecard } from '../domain/index.js';
import type { ScorecardStore } from '../ports/index.js';

type Side = FlippedCase['baseline'];

function sideOf(card: Scorecard): Side {
  const side: Side = {
    passed: card.overall_passed,
    score: card.overall_score,
    failing_stage: card.failing_stage ?? null,
    error_code: card.error_code ?? null,
    message: null,
  };
  if (card.failing_stage) {
    const stage = card.stages[card.failing_stage];
    side.message = stage.message ?? null;
    if (stage.details !== undefined) side.details = stage.details;
  }
  return side;
}

/**
 * The first `max` of the given flipped case ids (sorted), with both sides' verdicts and the failing side's
 * message and diffs, read by point lookups (two per case: the case's first trial) once the streaming pass is over.
 * `fractions` (runs with trials): each case's pass fraction per side, shown as `pass_fraction`.
 */
export async function flippedCases(
  store: ScorecardStore,
  runs: { baseline: string; candidate: string },
  ids: readonly string[],
  max: number,
  fractions?: ReadonlyMap<string, readonly [number, number]>,
): Promise<FlippedCase[]> {
  const chosen = [...ids].sort().slice(0, max);
  const out: FlippedCase[] = [];
  for (const id of chosen) {
    const [a, b] = await Promise.all([store.getScorecard(runs.baseline, id), store.getScorecard(runs.candidate, id)]);
    if (!a || !b) continue;
    const flipped: FlippedCase = { test_case_id: id, category: a.category, baseline: sideOf(a), candidate: sideOf(b) };
    const f = fractions?.get(id);
    if (f) [flipped.baseline.pass_fraction, flipped.candidate.pass_fraction] = f;
    out.push(flipped);
  }
  return out;
}
