import type { PassRateDelta } from '../domain/index.js';
import { criterionRowHtml } from './criterionRows.js';
import { escapeHtml as h } from './escape.js';
import { ms, pct, points, pointsInterval, pValue, ratioChange, usd } from './format.js';
import type { ReportCaseList, RunReport } from './reportModel.js';
import { callDiffHtml } from './htmlCallDiff.js';

/** A table of listed cases (question, failing stage and code, message, diff) with the count left out. */
export function caseTableHtml(list: ReportCaseList): string {
  if (list.total === 0) return '<p class="note">none</p>';
  const rows = list.cases
    .map(
      (c) =>
        `<tr><td>${h(c.test_case_id)}</td><td>${h(c.category ?? '-')}</td><td>${h(c.failing_stage ?? '-')}${c.status === 'error' ? ' (could not score)' : ''}<br><span class="meta">${h(c.error_code ?? '')}</span></td>` +
        `<td>${c.question === null ? '<span class="note">not in the gold set</span>' : h(c.question)}</td>` +
        `<td>${h(c.message)}${c.diff.length ? `<ul class="diff">${c.diff.map((d) => `<li>${h(d)}</li>`).join('')}</ul>` : ''}${callDiffHtml(c)}` +
        `${c.trajectory?.length ? `<details><summary>trajectory</summary><ol class="diff">${c.trajectory.map((t) => `<li>${h(t)}</li>`).join('')}</ol></details>` : ''}</td></tr>`,
    )
    .join('\n');
  const more = list.total - list.cases.length;
  return `<table class="sortable" data-label="cases"><thead><tr><th>case</th><th>category</th><th>stage / code</th><th>question</th><th>why</th></tr></thead><tbody>
${rows}
</tbody></table>${more > 0 ? `<p class="note">… and ${more} more (the JSON and JUnit reports list every case).</p>` : ''}`;
}

function deltaRow(label: string, d: PassRateDelta): string {
  return `<tr><td>${h(label)}</td><td class="n">${pct(d.baseline.rate)}</td><td class="n">${pct(d.candidate.rate)}</td><td class="n">${h(points(d.difference))}</td><td>${h(pointsInterval(d.lower, d.upper))}</td><td class="n">${h(d.paired_cases ? pValue(d.p_value) : '-')}</td></tr>`;
}

/** The comparison with the base run: verdict, deltas with intervals and p-values, categories, flipped cases. */
export function comparisonHtml(section: NonNullable<RunReport['comparison']>): string {
  const { comparison, base_run: base } = section;
  const pair = comparison.pairs[0];
  const [b, c] = comparison.runs;
  if (!pair || !b || !c) return '';
  const meta = base.trigger_metadata;
  const baseLabel = [
    base.target_id,
    meta.branch ? `branch ${meta.branch}` : '',
    meta.commit_sha ? `commit ${String(meta.commit_sha).slice(0, 12)}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const lat = (q: 'p50' | 'p95', s: typeof b): number | null => s.latency_ms[q]?.estimate ?? null;
  const score = pair.score;
  const rows = [
    deltaRow(`pass rate (${pair.overall.test})`, pair.overall),
    `<tr><td>mean score (paired bootstrap)</td><td class="n">${score.baseline_mean?.toFixed(3) ?? '-'}</td><td class="n">${score.candidate_mean?.toFixed(3) ?? '-'}</td><td class="n">${score.difference ? score.difference.estimate.toFixed(3) : '-'}</td><td>${score.difference ? `${score.difference.lower.toFixed(3)} … ${score.difference.upper.toFixed(3)}` : '-'}</td><td class="n">${h(pValue(score.p_value))}</td></tr>`,
    ...pair.stages.map((st) => deltaRow(`stage ${st.stage}`, st)),
    ...pair.criteria.map((c) => criterionRowHtml(c, pair.criteria.length)),
    ...(['p50', 'p95'] as const).map(
      (q) =>
        `<tr><td>latency ${q}</td><td class="n">${ms(lat(q, b))}</td><td class="n">${ms(lat(q, c))}</td><td class="n">${h(ratioChange(lat(q, c), lat(q, b)))}</td><td></td><td class="n">${q === 'p95' && pair.latency_ms ? `${h(pValue(pair.latency_ms.p_value))} (Welch, mean)` : ''}</td></tr>`,
    ),
    `<tr><td>cost per case</td><td class="n">${usd(b.cost_usd.per_case)}</td><td class="n">${usd(c.cost_usd.per_case)}</td><td class="n">${h(ratioChange(c.cost_usd.per_case, b.cost_usd.per_case))}</td><td></td><td class="n">${pair.cost_per_case_usd ? `${h(pValue(pair.cost_per_case_usd.p_value))} (Welch)` : ''}</td></tr>`,
  ].join('\n');
  const groups = [...pair.by_category]
    .sort((x, y) => (x.difference ?? 0) - (y.difference ?? 0) || x.key.localeCompare(y.key))
    .map(
      (g) =>
        `<tr><td>${h(g.key)}</td><td class="n">${pct(g.baseline.rate)}</td><td class="n">${pct(g.candidate.rate)}</td><td class="n">${h(points(g.difference))}</td><td>${h(pointsInterval(g.lower, g.upper))}</td><td class="n">${h(pValue(g.p_value_adjusted))}</td><td class="n">${g.newly_failing} / ${g.newly_passing}</td><td>${g.significant ? '<span class="sig">significant</span>' : ''}</td></tr>`,
    )
    .join('\n');
  return `<section id="comparison"><h2>Compared with base run ${h(base.id)} <span class="meta">(${h(baseLabel)})</span></h2>
<p><b class="${pair.significant ? 'sig' : ''}">${h(pair.verdict)}</b></p>
<p class="meta">${pair.cases.shared} paired cases${pair.cases.only_baseline || pair.cases.only_candidate ? ` (${pair.cases.only_baseline} only in the base, ${pair.cases.only_candidate} only in this run)` : ''}; smallest detectable change ${h(points(pair.minimum_detectable_effect.paired).replace(/^[+±−]/, ''))} at alpha ${pair.minimum_detectable_effect.alpha}, power ${pair.minimum_detectable_effect.power}.</p>
<table><thead><tr><th></th><th>base</th><th>this run</th><th>change</th><th>95% CI</th><th>p</th></tr></thead><tbody>
${rows}
</tbody></table>
<h3>By category <span class="meta">(p-values Holm-adjusted across categories)</span></h3>
<table class="sortable" data-label="categories"><thead><tr><th>category</th><th>base</th><th>this run</th><th>change</th><th>95% CI</th><th>p (adj.)</th><th>newly failing / passing</th><th></th></tr></thead><tbody>
${groups}
</tbody></table>
<h3>Newly failing (${section.newly_failing.total})</h3>${caseTableHtml(section.newly_failing)}
<h3>Newly passing (${section.newly_passing.total})</h3>${caseTableHtml(section.newly_passing)}
</section>`;
}
