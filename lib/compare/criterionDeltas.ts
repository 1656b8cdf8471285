import type { CriterionDelta, CriterionMean } from '../domain/index.js';
import { holmAdjust, pairedTTest, RunningSummary } from '../statistics/index.js';
import { pairedMeansPValue } from './pairedMeans.js';
import type { RunCases } from './runCases.js';

/** Each rubric criterion's mean (1-5) over the cases scored on it (a case counts once: the mean of its trials), by name. */
export function criterionMeans(cases: RunCases): CriterionMean[] {
  return [...cases.criterionSums.keys()].sort().map((name) => {
    let n = 0;
    let sum = 0;
    for (let i = 0; i < cases.size; i++) {
      const m = cases.criterionMean(name, i);
      if (m >= 0) {
        n++;
        sum += m;
      }
    }
    return { name, n, mean: n === 0 ? null : sum / n };
  });
}

/**
 * The paired change of every rubric criterion both runs were judged on, over the cases scored on it in both (per-case
 * means over trials): means per side, the mean difference with the paired t interval, the paired t p-value (the exact
 * sign test when the differences have no spread: `pairedMeansPValue`), Holm-adjusted across the criteria.
 */
export function criterionDeltas(baseline: RunCases, candidate: RunCases, options: { confidence: number; alpha: number }): CriterionDelta[] {
  const names = [...candidate.criterionSums.keys()].filter((name) => baseline.criterionSums.has(name)).sort();
  const raw = names.map((name) => {
    const a = new RunningSummary();
    const b = new RunningSummary();
    const d = new RunningSummary();
    let down = 0;
    let up = 0;
    for (let i = 0; i < candidate.size; i++) {
      const j = candidate.pair[i] as number;
      if (j < 0) continue;
      const x = baseline.criterionMean(name, j);
      const y = candidate.criterionMean(name, i);
      if (x < 0 || y < 0) continue;
      a.add(x);
      b.add(y);
      d.add(y - x);
      if (y < x) down++;
      else if (y > x) up++;
    }
    const n = d.summary.n;
    const t = n >= 2 && d.summary.variance > 0 ? pairedTTest(d.summary, { confidence: options.confidence }) : null;
    const diff = n === 0 ? null : d.summary.mean;
    return {
      name,
      paired_cases: n,
      baseline_mean: n === 0 ? null : a.summary.mean,
      candidate_mean: n === 0 ? null : b.summary.mean,
      difference: diff,
      lower: t ? t.lower : diff,
      upper: t ? t.upper : diff,
      p_value: pairedMeansPValue(d.summary, down, up),
    };
  });
  const adjusted = holmAdjust(raw.map((r) => r.p_value));
  return raw.map((r, k) => {
    const p_value_adjusted = adjusted[k] as number;
    return { ...r, p_value_adjusted, test: 'paired t' as const, significant: r.paired_cases > 0 && p_value_adjusted < options.alpha };
  });
}
