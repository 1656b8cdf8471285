import { SLO_HEADER, sloRow } from './sloSection.js';
import { trialLine } from './trialLine.js';
import { efficiencyLine } from './efficiencyLine.js';
import { escapeHtml as h, jsonForScript } from './escape.js';
import { alertChange, ms, pct, pValue, rateWithInterval, reportVerdict, usd } from './format.js';
import { CHART_SCRIPT, chartData, chartJsSource } from './htmlCharts.js';
import { caseTableHtml, comparisonHtml } from './htmlSections.js';
import { TABLE_SCRIPT } from './htmlTables.js';
import type { RunReport } from './reportModel.js';

/**
 * The page forbids every fetch: scripts and styles only inline, images only as data: URLs. So the report opens
 * offline, and nothing in it (even injected markup, which the escaping already prevents) can reach the network.
 */
export const HTML_CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

const STYLE = `
:root{--fg:#1f2933;--muted:#616e7c;--line:#e4e7eb;--bad:#e12d39;--warn:#f0b429;--ok:#3ebd93;--accent:#2f6fde}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,sans-serif;color:var(--fg);margin:0 auto;max-width:1200px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
.meta{color:var(--muted)}.badge{display:inline-block;padding:2px 10px;border-radius:12px;font-weight:600;color:#fff}
.badge.ok{background:var(--ok)}.badge.warning{background:var(--warn);color:#1f2933}.badge.critical{background:var(--bad)}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:10px;margin:16px 0}
.card{border:1px solid var(--line);border-radius:8px;padding:10px 12px}.card b{display:block;font-size:20px}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(360px,1fr));gap:16px}
.chart{border:1px solid var(--line);border-radius:8px;padding:10px;height:300px;display:flex;flex-direction:column}
.chart h3{font-size:14px;margin:0 0 6px}.chart div{position:relative;flex:1;min-height:0}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f5f7fa}td.n{text-align:right;font-variant-numeric:tabular-nums}
ul.diff{margin:2px 0;padding-left:16px;font-family:ui-monospace,monospace;font-size:12px;white-space:pre-wrap;word-break:break-word}
.alert{border-left:4px solid var(--warn);padding:6px 10px;margin:6px 0;background:#fffbea}.alert.low{border-color:#7b8794;background:#f5f7fa}.alert.high{border-color:#e8590c;background:#fff4e6}.alert.critical{border-color:var(--bad);background:#ffeeee}
.sig{color:var(--bad);font-weight:600}.note{color:var(--muted);font-style:italic}
button.sort{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit}
input.filter{margin:4px 0;padding:3px 6px;border:1px solid #767676;border-radius:3px;min-width:220px}
details.calls{margin-top:4px}.sbs{display:grid;grid-template-columns:1fr 1fr;gap:8px}.sbs pre{margin:2px 0;font-size:12px;background:#f5f7fa;padding:6px;overflow:auto}
.sbs .only{background:#ffe3e3;display:inline-block;width:100%}
@media print{.chart{break-inside:avoid}}`;

/**
 * The report as one self-contained HTML page: summary cards, then the charts (stage funnel, pass rate by category
 * with Wilson error bars, latency histogram, flipped cases by category), alerts, the comparison, stage and category
 * tables and the failing cases with expected vs actual calls side by side; every table sortable and filterable
 * (TABLE_SCRIPT, inline). Chart.js is inlined (read from node_modules at render time), so the page needs
 * no network; every piece of run data is HTML-escaped, and the chart data sits in a JSON script element with
 * `<`, `>` and `&` escaped.
 */
export function renderHtml(report: RunReport): string {
  const r = report;
  const s = r.stats;
  const verdict = reportVerdict(r);
  const meta = r.run.trigger_metadata;
  const title = `EvalPlatform report: ${r.run.target_id} on ${r.run.suite_id}`;
  const metaLine = [
    `run ${r.run.id} (${r.run.status})`,
    meta.commit_sha ? `commit ${String(meta.commit_sha).slice(0, 12)}` : '',
    meta.pr_number ? `PR #${meta.pr_number}` : '',
    meta.branch ? `branch ${meta.branch}` : '',
    meta.repository ? `${meta.repository}` : '',
    `profile ${r.run.config.profile ?? 'default'}`,
    `generated ${r.generated_at}`,
  ].filter(Boolean);
  const card = (label: string, value: string, sub = ''): string =>
    `<div class="card">${h(label)}<b>${h(value)}</b><span class="meta">${h(sub)}</span></div>`;
  const alerts = (r.alerts ?? [])
    .map(
      (a) =>
        `<div class="alert ${h(a.severity)}"><b>${h(a.severity)}</b> ${h(a.metric)} ${h(alertChange(a))} (p ${h(pValue(a.p_value))}, ${h(a.test)}${a.status === 'acknowledged' ? ', acknowledged' : ''}): ${h(a.message)}${a.affected_categories.length ? `<br><span class="meta">categories: ${h(a.affected_categories.map((c) => `${c.category} (${c.change.toFixed(1)} pts)`).join(', '))}</span>` : ''}</div>`,
    )
    .join('\n');
  const stageRows = r.stages
    .map(
      (st, i) =>
        `<tr><td>${st.stage}</td><td class="n">${st.ran}</td><td class="n">${st.passed}</td><td>${st.ran ? h(rateWithInterval(st.rate)) : 'off'}</td><td class="n">${r.funnel[i]?.remaining ?? '-'}</td></tr>`,
    )
    .join('');
  const categoryRows = r.categories
    .map(
      (c) =>
        `<tr><td>${h(c.category)}</td><td class="n">${c.rate.n}</td><td class="n">${c.rate.passed}</td><td>${h(rateWithInterval(c.rate))}</td></tr>`,
    )
    .join('');
  const workflow =
    meta.workflow_run_url && /^https?:\/\//i.test(String(meta.workflow_run_url))
      ? ` · <a href="${h(String(meta.workflow_run_url))}">workflow run</a>`
      : '';

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${HTML_CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${h(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${h(title)} <span class="badge ${verdict.level}">${h(verdict.text)}</span></h1>
<div class="meta">${h(metaLine.join(' · '))}${workflow}</div>
${r.run.error ? `<p class="alert critical">${h(r.run.error)}</p>` : ''}${r.run.notes.map((n) => `<p class="note">${h(n)}</p>`).join('')}
</header>
<section class="cards">
${card('pass rate', pct(s.pass_rate), `${s.passed} of ${s.scored} scored; 95% CI ${pct(r.pass_rate.lower)}–${pct(r.pass_rate.upper)}`)}
${card('infrastructure failures', pct(s.infrastructure_failure_rate), `${s.not_scored} of ${s.completed} not scored (target, MCP server, judge); left out of every rate`)}
${card('mean score', s.mean_score === null ? '-' : s.mean_score.toFixed(3))}
${r.efficiency && r.efficiency.cases > 0 ? card('efficiency', r.efficiency.mean_score === null ? '-' : r.efficiency.mean_score.toFixed(3), efficiencyLine(r.efficiency)) : ''}
${r.trial_stats ? card(`pass^${r.trial_stats.trials}`, r.trial_stats.pass_hat_k === null ? '-' : pct(r.trial_stats.pass_hat_k), trialLine(r.trial_stats)) : ''}
${card('latency p50 / p95', `${ms(s.latency_ms.p50)} / ${ms(s.latency_ms.p95)}`, `p99 ${ms(s.latency_ms.p99)}`)}
${card('cost', usd(s.cost_usd), s.completed ? `${usd(s.cost_usd / s.completed)} per case` : '')}
${card('tokens', `${s.tokens.input} / ${s.tokens.output}`, 'input / output')}
</section>
<section><h2>Charts</h2><div class="charts">
<div class="chart"><h3>Stage funnel: cases still clean after each stage</h3><div><canvas id="chart-funnel"></canvas></div></div>
<div class="chart"><h3>Pass rate by category (95% Wilson intervals)</h3><div><canvas id="chart-categories"></canvas></div></div>
<div class="chart"><h3>Latency histogram</h3><div><canvas id="chart-latency"></canvas></div></div>
${r.comparison ? '<div class="chart"><h3>Flipped cases by category</h3><div><canvas id="chart-flipped"></canvas></div></div>' : ''}
</div></section>
${
  r.slo_compliance?.length
    ? `<section><h2>Latency SLOs</h2><table><thead><tr>${SLO_HEADER.map((x) => `<th>${h(x)}</th>`).join('')}</tr></thead><tbody>${r.slo_compliance
        .map(
          (c) =>
            `<tr class="slo-${h(c.status)}">${sloRow(c)
              .map((x) => `<td>${h(x)}</td>`)
              .join('')}</tr>`,
        )
        .join('')}</tbody></table></section>`
    : ''
}
${alerts ? `<section><h2>Alerts</h2>${alerts}</section>` : ''}
${r.comparison ? comparisonHtml(r.comparison) : ''}
<section><h2>Stages</h2><table class="sortable" data-label="stages"><thead><tr><th>stage</th><th>ran</th><th>passed</th><th>pass rate (95% CI)</th><th>still clean after it</th></tr></thead><tbody>${stageRows}</tbody></table></section>
<section><h2>Categories</h2><table class="sortable" data-label="categories"><thead><tr><th>category</th><th>cases</th><th>passed</th><th>pass rate (95% CI)</th></tr></thead><tbody>${categoryRows}</tbody></table></section>
${r.error_codes.length ? `<section><h2>Error codes</h2><p>${r.error_codes.map((e) => `${h(e.code)} ${e.count}`).join(', ')}</p></section>` : ''}
<section><h2>Failing cases (${r.failures.total})</h2>${caseTableHtml(r.failures)}</section>
<script type="application/json" id="report-data">${jsonForScript(chartData(r))}</script>
<script>${chartJsSource()}</script>
<script>${CHART_SCRIPT}</script>
<script>${TABLE_SCRIPT}</script>
</body>
</html>
`;
}
