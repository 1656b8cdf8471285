import { trialLine } from './trialLine.js';
import { efficiencyLine } from './efficiencyLine.js';
import { escapeMarkdown as md } from './escape.js';
import { judgingMarkdown } from './judgingMarkdown.js';
import { alertChange, ms, pct, pValue, rateWithInterval, reportVerdict, SEVERITY_ICON, usd } from './format.js';
import { comparisonMarkdown } from './markdownComparison.js';
import { caseSection, codeOrText, type MarkdownLimits } from './markdownCases.js';
import { REPORT_MARKER, type RunReport } from './reportModel.js';
import { SLO_HEADER, sloRow } from './sloSection.js';
import { sampleMarkdown } from './sampleMarkdown.js';
import { compatMarkdown } from './compatSummary.js';

/** GitHub refuses comments over 65,536 characters; the default leaves room for a wrapper. */
export const DEFAULT_MARKDOWN_MAX_CHARS = 60_000;

export interface MarkdownOptions {
  /** hard limit on the length (characters); lists shrink (with counts) until it fits */
  maxChars?: number;
  /** failing cases listed at most (before shrinking to fit); default 50 */
  maxFailures?: number;
  /** flipped cases listed each way at most; default 30 */
  maxFlipped?: number;
}

/**
 * The report as GitHub-flavoured Markdown for a step summary or a PR comment: the headline, alerts, the comparison
 * (when present), stages, categories, latency and cost, and the failing cases. Long lists are cut with a count of
 * what is left out, and the whole text stays under `maxChars`. Starts with REPORT_MARKER (an HTML comment) so a
 * PR comment can be found and updated.
 */
export function renderMarkdown(report: RunReport, options: MarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? DEFAULT_MARKDOWN_MAX_CHARS;
  let limits: MarkdownLimits = {
    failures: options.maxFailures ?? 50,
    flipped: options.maxFlipped ?? 30,
    categories: 60,
    diffLines: 4,
    questionChars: 160,
  };
  for (;;) {
    const text = markdownWith(report, limits);
    if (text.length <= maxChars) return text;
    if (limits.failures + limits.flipped + limits.categories === 0 && limits.diffLines === 0) {
      const note = '\n\n_(report cut to fit the size limit)_\n';
      const cut = text.lastIndexOf('\n', maxChars - note.length);
      return text.slice(0, cut > 0 ? cut : Math.max(0, maxChars - note.length)) + note;
    }
    limits = {
      failures: Math.floor(limits.failures / 2),
      flipped: Math.floor(limits.flipped / 2),
      categories: Math.floor(limits.categories / 2),
      diffLines: Math.floor(limits.diffLines / 2),
      questionChars: Math.max(40, Math.floor(limits.questionChars / 2)),
    };
  }
}

function markdownWith(r: RunReport, limits: MarkdownLimits): string {
  const s = r.stats;
  const verdict = reportVerdict(r);
  const meta = r.run.trigger_metadata;
  const lines: string[] = [
    REPORT_MARKER,
    `## ${verdict.icon} EvalPlatform: ${md(r.run.target_id)} on ${md(r.run.suite_id)}: ${pct(s.pass_rate)} passed`,
    '',
    `**${s.passed} of ${s.scored}** scored cases passed (95% CI ${pct(r.pass_rate.lower)}–${pct(r.pass_rate.upper)}), mean score ${s.mean_score === null ? '-' : s.mean_score.toFixed(3)}, run ${md(r.run.id)} ${r.run.status}${s.completed < r.run.total_cases ? ` with ${s.completed} of ${r.run.total_cases} cases in` : ''}: ${verdict.text}.`,
    '',
    `Not scored (infrastructure: target, MCP server, judge): ${s.not_scored} of ${s.completed} (infrastructure-failure rate ${pct(s.infrastructure_failure_rate)}), left out of every rate above.`,
    '',
    ...(r.trial_stats ? [md(trialLine(r.trial_stats)) + '.', ''] : []),
    ...(r.efficiency && r.efficiency.cases > 0 ? [md(efficiencyLine(r.efficiency)) + '.', ''] : []),
    [
      meta.commit_sha ? `commit ${md(String(meta.commit_sha).slice(0, 12))}` : '',
      meta.pr_number ? `PR #${meta.pr_number}` : '',
      meta.branch ? `branch ${md(String(meta.branch))}` : '',
      meta.workflow_run_url ? `[workflow run](${encodeURI(String(meta.workflow_run_url))})` : '',
      `profile ${md(r.run.config.profile ?? 'default')}`,
      `suite version ${r.run.suite_version ?? 'live'}`,
      `generated ${r.generated_at}`,
    ]
      .filter(Boolean)
      .join(' · '),
  ];
  if (r.run.error) lines.push('', `> **Run error:** ${md(r.run.error)}`);
  for (const note of r.run.notes) lines.push('', `> ${md(note)}`);
  if (r.slo_compliance?.length) {
    lines.push('', '### Latency SLOs', '', `| ${SLO_HEADER.join(' | ')} |`, `|${SLO_HEADER.map(() => '---').join('|')}|`);
    for (const c of r.slo_compliance) lines.push(`| ${sloRow(c).map(md).join(' | ')} |`);
  }
  if (r.alerts?.length) {
    lines.push('', '### Alerts', '');
    for (const a of r.alerts) {
      const icon = SEVERITY_ICON[a.severity];
      const cats = a.affected_categories.length
        ? `; categories: ${a.affected_categories.map((c) => `${md(c.category)} (${c.change < 0 ? '−' : '+'}${Math.abs(c.change).toFixed(1)})`).join(', ')}`
        : '';
      lines.push(
        `- ${icon} **${a.severity}** ${md(a.metric)} ${alertChange(a)} (p ${pValue(a.p_value)}, ${md(a.test)}${a.status === 'acknowledged' ? ', acknowledged' : ''}): ${md(a.message)}${cats}`,
      );
    }
  }
  if (r.comparison) lines.push('', ...comparisonMarkdown(r.comparison, limits));
  if (r.sample) lines.push('', ...sampleMarkdown(r.sample));
  if (r.compat) lines.push('', ...compatMarkdown(r.compat));

  lines.push('', '### Stages', '', '| stage | ran | passed | pass rate (95% CI) | still clean after it |', '|---|---:|---:|---|---:|');
  r.stages.forEach((st, i) => {
    const f = r.funnel[i];
    lines.push(`| ${st.stage} | ${st.ran} | ${st.passed} | ${st.ran ? rateWithInterval(st.rate) : 'off'} | ${f ? f.remaining : '-'} |`);
  });

  const judging = judgingMarkdown(r.judging);
  if (judging.length) lines.push('', ...judging);

  lines.push('', '### Pass rate by category', '', '| category | cases | pass rate (95% CI) |', '|---|---:|---|');
  const worstFirst = [...r.categories].sort((a, b) => (a.rate.rate ?? 1) - (b.rate.rate ?? 1) || a.category.localeCompare(b.category));
  for (const c of worstFirst.slice(0, limits.categories)) lines.push(`| ${md(c.category)} | ${c.rate.n} | ${rateWithInterval(c.rate)} |`);
  if (worstFirst.length > limits.categories) lines.push(`| … and ${worstFirst.length - limits.categories} more categories | | |`);

  lines.push(
    '',
    '### Latency, tokens and cost',
    '',
    `latency p50 ${ms(s.latency_ms.p50)}, p95 ${ms(s.latency_ms.p95)}, p99 ${ms(s.latency_ms.p99)} · tokens ${s.tokens.input} in / ${s.tokens.output} out · cost ${usd(s.cost_usd)}${s.completed ? ` (${usd(s.cost_usd / s.completed)} per case)` : ''}`,
  );
  if (r.error_codes.length)
    lines.push(
      '',
      `**Top error codes:** ${r.error_codes
        .slice(0, 8)
        .map((e) => `${codeOrText(e.code)} ${e.count}`)
        .join(', ')}`,
    );
  lines.push('', ...caseSection('Failing cases', r.failures, limits.failures, limits));
  return lines.join('\n') + '\n';
}
