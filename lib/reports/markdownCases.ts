import { escapeMarkdown as md, truncateText } from './escape.js';
import type { ReportCase, ReportCaseList } from './reportModel.js';

/** Row limits of one Markdown rendering (halved until the text fits). */
export interface MarkdownLimits {
  failures: number;
  flipped: number;
  categories: number;
  diffLines: number;
  questionChars: number;
}

/** A titled, capped list of cases in a collapsed <details> block, with the count of what is left out. */
export function caseSection(title: string, list: ReportCaseList, limit: number, limits: MarkdownLimits, level = '###'): string[] {
  if (list.total === 0) return [`${level} ${title}: none`];
  const shown = list.cases.slice(0, limit);
  const out = [`${level} ${title} (${list.total})`, ''];
  if (shown.length === 0)
    return [...out, `_${list.total} cases; the list is left out to keep this report short (see the HTML or JSON report)._`];
  out.push(
    `<details><summary>${shown.length < list.total ? `first ${shown.length} of ${list.total}` : `all ${list.total}`}</summary>`,
    '',
    ...caseTable(shown, limits),
  );
  if (shown.length < list.total) out.push('', `_… and ${list.total - shown.length} more (see the HTML, JSON or JUnit report)._`);
  out.push('', '</details>');
  return out;
}

/** Identifier-like platform text (error codes) as code; anything else as escaped text. */
export function codeOrText(text: string): string {
  return /^[A-Za-z0-9_.:-]+$/.test(text) ? `\`${text}\`` : md(text);
}

/** A table of cases: id, category, failing stage and code, the question and why it failed (diff lines). */
export function caseTable(cases: readonly ReportCase[], limits: Pick<MarkdownLimits, 'diffLines' | 'questionChars'>): string[] {
  const rows = ['| case | category | stage / code | question | why |', '|---|---|---|---|---|'];
  for (const c of cases) {
    const steps = c.trajectory?.length ? ['trajectory:', ...c.trajectory.slice(0, limits.diffLines)] : [];
    const why = [c.message, ...c.diff.slice(0, limits.diffLines), ...steps].filter(Boolean).map((l) => md(truncateText(l, 200)));
    rows.push(
      `| ${md(c.test_case_id)} | ${md(c.category ?? '-')} | ${c.failing_stage ?? '-'} / ${md(c.error_code ?? '-')} | ${c.question === null ? '_(not in the gold set)_' : md(truncateText(c.question, limits.questionChars))} | ${why.join('<br>') || '-'} |`,
    );
  }
  return rows;
}
