import type { JudgingSummary } from './judgingSummary.js';

import { escapeMarkdown as md } from './escape.js';

const num = (x: number | null, digits = 3): string => (x === null ? '-' : x.toFixed(digits));

/** The "Judging" section of the Markdown report: semantic score, rubric criteria, reference metrics. */
export function judgingMarkdown(j: JudgingSummary | undefined): string[] {
  if (!j || (j.semantic.scored === 0 && j.criteria.length === 0 && j.reference_metrics.length === 0)) return [];
  const lines = ['### Judging', '', `semantic score mean ${num(j.semantic.mean)} over ${j.semantic.scored} judged cases`];
  for (const judge of j.judges) {
    if (judge.calibration) {
      const c = judge.calibration;
      lines.push(
        '',
        `judge ${md(judge.judge_model)} (rubric ${md(judge.rubric_id)}): calibrated on ${c.items} items of task ${md(c.task_id)}, Cohen's kappa ${num(c.kappa)}, raw agreement ${num(c.raw_agreement)} (${md(c.provenance)})`,
      );
    } else if (judge.warning) lines.push('', `> ⚠️ ${md(judge.warning)}`);
  }
  if (j.criteria.length) {
    lines.push('', '| criterion | cases | mean (1-5) |', '|---|---:|---:|');
    for (const c of j.criteria) lines.push(`| ${md(c.name)} | ${c.scored} | ${num(c.mean, 2)} |`);
  }
  if (j.reference_metrics.length) {
    lines.push('', '| reference metric | cases | mean | skipped |', '|---|---:|---:|---|');
    for (const m of j.reference_metrics) {
      lines.push(`| ${md(m.name)} | ${m.scored} | ${num(m.mean)} | ${m.skipped ? `${m.skipped} (${m.skipped_reason ?? ''})` : '0'} |`);
    }
  }
  return lines;
}
