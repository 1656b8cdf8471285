/** One rubric criterion's score on a scorecard (1-5, fractional with G-Eval's probability weighting). */
export interface CriterionScore {
  name: string;
  score: number;
}

/**
 * The per-criterion semantic scores of a scorecard: `stages.semantics.details.criteria` as the rubric judge writes them
 * (lib/evaluation runSemanticsStage), when stage 4 scored the answer (status passed or failed); empty otherwise
 * (holistic or heuristic judges, a judge error, stage 4 off, or a counted outcome, which carries no details).
 */
export function criterionScoresOf(card: { stages: { semantics?: { status: string; details?: unknown } | undefined } }): CriterionScore[] {
  const s = card.stages.semantics;
  if (!s || (s.status !== 'passed' && s.status !== 'failed')) return [];
  const details = s.details;
  if (typeof details !== 'object' || details === null) return [];
  const list = (details as { criteria?: unknown }).criteria;
  if (!Array.isArray(list)) return [];
  const out: CriterionScore[] = [];
  for (const c of list) {
    if (typeof c !== 'object' || c === null) continue;
    const { name, score } = c as { name?: unknown; score?: unknown };
    if (typeof name === 'string' && typeof score === 'number' && Number.isFinite(score)) out.push({ name, score });
  }
  return out;
}
