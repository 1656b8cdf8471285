import type { CriterionDelta } from '../domain/index.js';
import { formatP } from './significanceText.js';

const signed = (x: number): string => `${x > 0 ? '+' : x < 0 ? '-' : ''}${Math.abs(x).toFixed(2)}`;

/**
 * One line for a rubric criterion's paired change (1-5 scale), e.g.
 * "criterion correctness 4.50 → 3.00: -1.50 [-2.07, -0.93] (paired t, 6 cases), p = 0.0022 Holm-adjusted over 2, significant".
 */
export function criterionLine(d: CriterionDelta, criteria: number): string {
  if (d.paired_cases === 0 || d.difference === null) return `criterion ${d.name}: no case scored on it in both runs`;
  const holm = criteria > 1 ? ` Holm-adjusted over ${criteria}` : '';
  return (
    `criterion ${d.name} ${d.baseline_mean!.toFixed(2)} → ${d.candidate_mean!.toFixed(2)}: ${signed(d.difference)} ` +
    `[${signed(d.lower ?? d.difference)}, ${signed(d.upper ?? d.difference)}] (paired t, ${d.paired_cases} cases), ` +
    `${formatP(d.p_value_adjusted)}${holm}${d.significant ? ', significant' : ''}`
  );
}
