import Table from 'cli-table3';
import type { Comparison, GroupDelta, Interval, PairComparison, PassRateDelta, RunSummary } from '../../domain/index.js';
import { criterionLine, formatP, formatPoints } from '../../compare/index.js';

/** No separator lines between rows. */
const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };
const table = (head: string[]) => new Table({ head, style: { head: [], border: [] }, chars: COMPACT });

const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);
const ms = (i: Interval | null): string => (i ? `${Math.round(i.estimate)} [${Math.round(i.lower)}, ${Math.round(i.upper)}] ms` : '-');
const usd = (x: number): string => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toPrecision(2));

const pCell = (p: number): string => (p < 0.001 ? '<0.001' : p >= 0.995 ? '1' : p.toPrecision(2));

/** "*" p < 0.05, "**" p < 0.01, "***" p < 0.001 (the p used for significance: Holm-adjusted in families) */
export function significanceMark(p: number, alpha: number): string {
  if (p >= alpha) return '';
  return p < 0.001 ? '***' : p < 0.01 ? '**' : '*';
}

function runsSideBySide(runs: readonly RunSummary[]): string {
  const t = table(['', ...runs.map((r) => r.label)]);
  const row = (name: string, f: (r: RunSummary) => string) => t.push([name, ...runs.map(f)]);
  row('run', (r) => r.run_id);
  row('target', (r) => r.target_id);
  row('cases', (r) => String(r.pass_rate.n));
  row('pass rate [CI]', (r) => `${pct(r.pass_rate.rate)} [${pct(r.pass_rate.lower)}, ${pct(r.pass_rate.upper)}]`);
  row('mean score', (r) => (r.mean_score === null ? '-' : r.mean_score.toFixed(3)));
  for (const stage of ['syntax', 'logic', 'execution', 'semantics']) {
    row(`  ${stage}`, (r) => {
      const s = r.stages.find((x) => x.stage === stage);
      return s ? `${pct(s.rate.rate)} of ${s.rate.n}` : '-';
    });
  }
  row('latency p50', (r) => ms(r.latency_ms.p50));
  row('latency p95', (r) => ms(r.latency_ms.p95));
  row('latency p99', (r) => ms(r.latency_ms.p99));
  row('tokens in / out', (r) => `${r.tokens.input} / ${r.tokens.output}`);
  row('cost [CI]', (r) => `$${usd(r.cost_usd.total.estimate)} [${usd(r.cost_usd.total.lower)}, ${usd(r.cost_usd.total.upper)}]`);
  row('passed per $', (r) => (r.accuracy_per_dollar === null ? '-' : r.accuracy_per_dollar.toFixed(1)));
  row('model versions', (r) => r.client_versions.join(', ') || '-');
  return t.toString();
}

function deltaCells(d: PassRateDelta, p: number, alpha: number): string[] {
  const change =
    d.difference === null ? '-' : `${formatPoints(d.difference)} [${formatPoints(d.lower ?? 0)}, ${formatPoints(d.upper ?? 0)}]`;
  return [
    pct(d.baseline.rate),
    pct(d.candidate.rate),
    change,
    `${d.newly_failing} / ${d.newly_passing}`,
    pCell(p),
    significanceMark(p, alpha),
  ];
}

function deltaTable(pair: PairComparison, labels: [string, string], alpha: number, confidence: number): string {
  const [a, b] = labels;
  const t = table(['', 'n', a, b, `change, points [${Math.round(confidence * 100)}% CI]`, `${a}✓${b}✗ / ${a}✗${b}✓`, 'p', '']);
  const push = (name: string, d: PassRateDelta, p: number) => t.push([name, String(d.paired_cases), ...deltaCells(d, p, alpha)]);
  push('overall', pair.overall, pair.overall.p_value);
  for (const s of pair.stages) push(`  ${s.stage}`, s, s.p_value);
  const family = (title: string, groups: readonly GroupDelta[], prefix = '') => {
    if (!groups.length) return;
    t.push([title, '', '', '', '', '', '', '']);
    for (const g of groups) push(`  ${prefix}${g.key}`, g, g.p_value_adjusted);
  };
  family('by category', pair.by_category);
  family('by complexity', pair.by_complexity, 'level ');
  const tags = pair.by_tag.filter((g) => g.significant);
  if (tags.length) family(`tags (significant, of ${pair.by_tag.length})`, tags);
  return t.toString();
}

function flippedTable(pair: PairComparison, labels: [string, string], first: number): string {
  const rows = [
    ...pair.flipped.newly_failing.cases.slice(0, first).map((c) => ({ c, dir: `${labels[0]}✓ → ${labels[1]}✗`, side: c.candidate })),
    ...pair.flipped.newly_passing.cases.slice(0, first).map((c) => ({ c, dir: `${labels[0]}✗ → ${labels[1]}✓`, side: c.baseline })),
  ];
  if (!rows.length) return '';
  const t = table(['case', 'category', 'flip', 'failing stage / error', 'why']);
  for (const { c, dir, side } of rows) {
    const why = side.message ?? '';
    t.push([
      c.test_case_id,
      c.category ?? '-',
      dir,
      `${side.failing_stage ?? '-'} / ${side.error_code ?? '-'}`,
      why.length > 60 ? `${why.slice(0, 57)}...` : why,
    ]);
  }
  return t.toString();
}

/** The human-readable comparison: runs side by side, then for each pair its deltas, tests, flipped cases and verdict. */
export function renderComparison(comparison: Comparison, options: { flipped?: number } = {}): string {
  const { alpha, confidence } = comparison.options;
  const out: string[] = [runsSideBySide(comparison.runs)];
  comparison.pairs.forEach((pair, k) => {
    const labels: [string, string] = [comparison.runs[0]?.label ?? 'A', comparison.runs[k + 1]?.label ?? 'B'];
    const c = pair.cases;
    const scope =
      c.only_baseline + c.only_candidate > 0
        ? ` (${c.only_baseline} only in ${labels[0]}, ${c.only_candidate} only in ${labels[1]}${pair.same_suite ? '' : '; different suites'})`
        : '';
    out.push(`\n${pair.label}: ${c.shared} paired cases${scope}`);
    out.push(deltaTable(pair, labels, alpha, confidence));
    out.push(
      pair.overall.test === 'exact McNemar'
        ? `p: exact McNemar on the discordant pairs, Holm-adjusted within categories, complexity levels and tags (stages: unadjusted); * p < ${alpha}, ** p < 0.01, *** p < 0.001; intervals: Newcombe paired`
        : `p: paired t on per-case trial means (runs with trials: each case's pass fraction over its scored trials; exact McNemar where all are 0 or 1), Holm-adjusted within categories, complexity levels and tags (stages: unadjusted); * p < ${alpha}, ** p < 0.01, *** p < 0.001; intervals: paired t`,
    );
    const s = pair.score;
    if (s.difference)
      out.push(
        `mean score ${s.baseline_mean!.toFixed(3)} → ${s.candidate_mean!.toFixed(3)}: ${formatPoints(s.difference.estimate)} points [${formatPoints(s.difference.lower)}, ${formatPoints(s.difference.upper)}] (paired bootstrap, seed ${comparison.options.seed}), ${formatP(s.p_value)}`,
      );
    for (const d of pair.criteria) out.push(criterionLine(d, pair.criteria.length));
    const bay = pair.bayesian;
    out.push(
      `Bayesian (uniform prior): P(${labels[1]} better) = ${bay.probability_b_better.toFixed(3)}, difference ${formatPoints(bay.difference.mean)} [${formatPoints(bay.difference.lower)}, ${formatPoints(bay.difference.upper)}], expected loss choosing ${labels[1]} ${(bay.expected_loss_choosing_b * 100).toFixed(2)} points`,
    );
    if (pair.latency_ms)
      out.push(
        `latency mean ${pair.latency_ms.difference >= 0 ? '+' : ''}${Math.round(pair.latency_ms.difference)} ms [${Math.round(pair.latency_ms.lower)}, ${Math.round(pair.latency_ms.upper)}] (Welch), ${formatP(pair.latency_ms.p_value)}`,
      );
    if (pair.cost_per_case_usd)
      out.push(
        `cost per case ${pair.cost_per_case_usd.difference >= 0 ? '+' : '-'}$${usd(Math.abs(pair.cost_per_case_usd.difference))} (Welch), ${formatP(pair.cost_per_case_usd.p_value)}`,
      );
    const mde = pair.minimum_detectable_effect;
    if (mde.paired !== null)
      out.push(
        `minimum detectable change (alpha ${mde.alpha}, power ${mde.power}): ${(mde.paired * 100).toFixed(1)} points paired (${((mde.unpaired ?? NaN) * 100).toFixed(1)} unpaired)`,
      );
    out.push(`flipped: ${pair.flipped.newly_failing.total} newly failing, ${pair.flipped.newly_passing.total} newly passing`);
    const flipped = flippedTable(pair, labels, options.flipped ?? 5);
    if (flipped) out.push(flipped);
    out.push(`Verdict: ${pair.verdict}`);
  });
  return out.join('\n');
}
