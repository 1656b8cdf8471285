import type { CriterionDelta } from '../domain/index.js';
import { escapeHtml as h, escapeMarkdown as md } from './escape.js';
import { pValue } from './format.js';

const mean = (x: number | null): string => (x === null ? '-' : x.toFixed(2));

function cells(d: CriterionDelta, criteria: number, signed: (x: number, digits: number) => string): string[] {
  const none = d.paired_cases === 0 || d.difference === null;
  const p = none
    ? '-'
    : `${pValue(d.p_value_adjusted)} (paired t${criteria > 1 ? `, Holm over ${criteria}` : ''})${d.significant ? ' ⚠️' : ''}`;
  return [
    `criterion ${d.name} (1-5)`,
    mean(d.baseline_mean),
    mean(d.candidate_mean),
    none ? '-' : signed(d.difference!, 2),
    none ? '-' : `${signed(d.lower ?? d.difference!, 2)} … ${signed(d.upper ?? d.difference!, 2)}`,
    p,
  ];
}

const plainSigned = (x: number, digits: number): string => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(digits)}`;

/** A rubric criterion's row in the markdown comparison table (mean per run on the 1-5 scale, paired change, Holm-adjusted p). */
export function criterionRow(d: CriterionDelta, criteria: number, signed: (x: number, digits: number) => string = plainSigned): string {
  const [label, ...rest] = cells(d, criteria, signed);
  return `| ${md(label!)} | ${rest.join(' | ')} |`;
}

/** The same row in the HTML report's comparison table. */
export function criterionRowHtml(d: CriterionDelta, criteria: number): string {
  const [label, a, b, diff, ci, p] = cells(d, criteria, plainSigned).map((c) => h(c));
  return `<tr><td>${label}</td><td class="n">${a}</td><td class="n">${b}</td><td class="n">${diff}</td><td>${ci}</td><td class="n">${p}</td></tr>`;
}
