import type { GroupDelta, PairComparison, PassRateDelta } from '../domain/index.js';

/** "p < 0.001", "p = 0.0043", "p = 0.035", "p = 0.21", "p = 1" */
export function formatP(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  return `p = ${p >= 0.995 ? '1' : p.toPrecision(2)}`;
}

/** a difference as signed percentage points, e.g. "-29.8" */
export function formatPoints(d: number): string {
  const v = (d * 100).toFixed(1);
  return d > 0 ? `+${v}` : v;
}

const pct = (x: number | null): string => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);

function change(delta: PassRateDelta): string {
  return `${pct(delta.baseline.rate)} → ${pct(delta.candidate.rate)}`;
}

function describe(labels: { baseline: string; candidate: string }, where: string, delta: PassRateDelta, p: string): string {
  const d = delta.difference ?? 0;
  return `${labels.candidate} is ${d < 0 ? 'worse' : 'better'} than ${labels.baseline} ${where} by ${Math.abs(d * 100).toFixed(1)} points (${change(delta)}), ${p}`;
}

/** The significant members of a family, most adverse first (then by adjusted p). */
function findings(groups: readonly GroupDelta[]): GroupDelta[] {
  return groups
    .filter((g) => g.significant)
    .sort((x, y) => (x.difference ?? 0) - (y.difference ?? 0) || x.p_value_adjusted - y.p_value_adjusted);
}

/**
 * One line a person can act on. It names the most adverse significant category (Holm-adjusted), else tag or
 * complexity level, and the overall change; without any significant change it says so with the overall interval
 * and what this comparison could have detected (the paired MDE).
 */
export function verdictOf(pair: PairComparison, labels: { baseline: string; candidate: string; confidence: number }): string {
  const { overall } = pair;
  const shared = pair.cases.shared;
  if (shared === 0) return `${labels.candidate} and ${labels.baseline} share no scored cases: nothing to compare`;
  const scope = pair.cases.only_baseline + pair.cases.only_candidate > 0 ? ` (on the ${shared} cases both runs scored)` : '';
  const groups: Array<[string, GroupDelta[], number]> = [
    ['', findings(pair.by_category), pair.by_category.length],
    ['complexity ', findings(pair.by_complexity), pair.by_complexity.length],
    ['tag ', findings(pair.by_tag), pair.by_tag.length],
  ];
  const parts: string[] = [];
  const family = groups.find(([, found]) => found.length > 0);
  if (family) {
    const [prefix, found, size] = family;
    const [first, ...rest] = found as [GroupDelta, ...GroupDelta[]];
    const holm = size > 1 ? ` (Holm-adjusted over ${size})` : '';
    parts.push(describe(labels, `on ${prefix}${first.key}`, first, formatP(first.p_value_adjusted) + holm));
    if (rest.length) parts.push(`also ${rest.map((g) => `${g.key} ${formatPoints(g.difference ?? 0)} points`).join(', ')}`);
    parts.push(
      `overall ${formatPoints(overall.difference ?? 0)} points (${change(overall)}), ${formatP(overall.p_value)}${overall.significant ? '' : ', not significant'}`,
    );
  } else if (overall.significant) {
    parts.push(describe(labels, 'overall', overall, formatP(overall.p_value)));
    parts.push('no single category changed significantly');
  } else {
    const ci = `${Math.round(labels.confidence * 100)}% CI ${formatPoints(overall.lower ?? 0)} to ${formatPoints(overall.upper ?? 0)}`;
    const mde = pair.minimum_detectable_effect.paired;
    parts.push(
      `No significant difference between ${labels.candidate} and ${labels.baseline}: overall ${formatPoints(overall.difference ?? 0)} points (${ci}), ${formatP(overall.p_value)}`,
    );
    if (mde !== null) parts.push(`changes under ${(mde * 100).toFixed(1)} points are not reliably detectable with ${shared} paired cases`);
  }
  return parts.join('; ') + scope;
}
