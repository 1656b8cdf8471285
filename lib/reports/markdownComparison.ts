import type { PassRateDelta } from '../domain/index.js';
import { criterionRow } from './criterionRows.js';
import { escapeMarkdown as md } from './escape.js';
import { ms, pct, points, pointsInterval, pValue, ratioChange, usd } from './format.js';
import { caseSection, type MarkdownLimits } from './markdownCases.js';
import type { RunReport } from './reportModel.js';

type ComparisonSection = NonNullable<RunReport['comparison']>;

/** The comparison with the base run: verdict, overall and per-stage deltas, categories, flipped cases. */
export function comparisonMarkdown(section: ComparisonSection, limits: MarkdownLimits): string[] {
  const { comparison, base_run: base } = section;
  const pair = comparison.pairs[0];
  const [baseSummary, headSummary] = comparison.runs;
  if (!pair || !baseSummary || !headSummary) return [];
  const meta = base.trigger_metadata;
  const baseLabel = [
    base.target_id,
    meta.branch ? `branch ${meta.branch}` : '',
    meta.commit_sha ? `commit ${String(meta.commit_sha).slice(0, 12)}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const mde = pair.minimum_detectable_effect;
  const lines = [
    `### Compared with base run ${md(base.id)} (${md(baseLabel)})`,
    '',
    `> ${pair.significant ? '**' : ''}${md(pair.verdict)}${pair.significant ? '**' : ''}`,
    '',
    `${pair.cases.shared} paired cases${pair.cases.only_baseline || pair.cases.only_candidate ? ` (${pair.cases.only_baseline} only in the base, ${pair.cases.only_candidate} only in this run)` : ''}; smallest detectable change ${mde.paired === null ? '-' : points(mde.paired).replace(/^[+±−]/, '')} (alpha ${mde.alpha}, power ${mde.power}).`,
    '',
    '| | base | this run | change | 95% CI | p |',
    '|---|---:|---:|---:|---|---:|',
    deltaRow('pass rate', pair.overall),
  ];
  const score = pair.score;
  lines.push(
    `| mean score | ${score.baseline_mean?.toFixed(3) ?? '-'} | ${score.candidate_mean?.toFixed(3) ?? '-'} | ${score.difference ? signed(score.difference.estimate, 3) : '-'} | ${score.difference ? `${signed(score.difference.lower, 3)} … ${signed(score.difference.upper, 3)}` : '-'} | ${pValue(score.p_value)} |`,
  );
  for (const st of pair.stages) lines.push(deltaRow(`  ${st.stage}`, st));
  for (const c of pair.criteria) lines.push(criterionRow(c, pair.criteria.length, signed));
  const lat = (q: 'p50' | 'p95' | 'p99', s: typeof baseSummary) => s.latency_ms[q]?.estimate ?? null;
  for (const q of ['p50', 'p95'] as const) {
    lines.push(
      `| latency ${q} | ${ms(lat(q, baseSummary))} | ${ms(lat(q, headSummary))} | ${ratioChange(lat(q, headSummary), lat(q, baseSummary))} | | ${q === 'p95' && pair.latency_ms ? `${pValue(pair.latency_ms.p_value)} (Welch, mean)` : ''} |`,
    );
  }
  lines.push(
    `| cost per case | ${usd(baseSummary.cost_usd.per_case)} | ${usd(headSummary.cost_usd.per_case)} | ${ratioChange(headSummary.cost_usd.per_case, baseSummary.cost_usd.per_case)} | | ${pair.cost_per_case_usd ? `${pValue(pair.cost_per_case_usd.p_value)} (Welch)` : ''} |`,
  );

  const groups = [...pair.by_category].sort((a, b) => (a.difference ?? 0) - (b.difference ?? 0) || a.key.localeCompare(b.key));
  if (groups.length) {
    lines.push(
      '',
      '**By category** (p-values Holm-adjusted across categories; ⚠️ marks a significant change):',
      '',
      '| category | base | this run | change | 95% CI | p (adj.) | |',
      '|---|---:|---:|---:|---|---:|---|',
    );
    for (const g of groups.slice(0, limits.categories)) {
      lines.push(
        `| ${md(g.key)} | ${pct(g.baseline.rate)} | ${pct(g.candidate.rate)} | ${points(g.difference)} | ${pointsInterval(g.lower, g.upper)} | ${pValue(g.p_value_adjusted)} | ${g.significant ? '⚠️' : ''} |`,
      );
    }
    if (groups.length > limits.categories) lines.push(`| … and ${groups.length - limits.categories} more categories | | | | | | |`);
  }
  lines.push('', ...caseSection('Newly failing', section.newly_failing, limits.flipped, limits, '####'));
  lines.push('', ...caseSection('Newly passing', section.newly_passing, limits.flipped, limits, '####'));
  return lines;
}

function deltaRow(label: string, d: PassRateDelta): string {
  const p = d.paired_cases ? `${pValue(d.p_value)}${label === 'pass rate' ? ` (${d.test})` : ''}` : '-';
  return `| ${label} | ${pct(d.baseline.rate)} | ${pct(d.candidate.rate)} | ${points(d.difference)} | ${pointsInterval(d.lower, d.upper)} | ${p} |`;
}

function signed(x: number, digits: number): string {
  const text = Math.abs(x).toFixed(digits);
  return `${x < 0 && Number(text) !== 0 ? '−' : x > 0 && Number(text) !== 0 ? '+' : ''}${text}`;
}
