import { severityRank, type Alert, type AlertSeverity, type AlertThresholds } from '../domain/index.js';
import { CRITERION_TEST } from './evidenceFrom.js';
import { formatPoints, formatPValue, formatScorePoints, formatValue } from './notify/alertFacts.js';
import type { AlertCandidate, CategoryEvidence, CriterionEvidence, MetricEvidence, RegressionEvidence } from './regressionEvidence.js';
import { dropStep, ratioStep, severityFor } from './severityRules.js';

type AffectedCategory = Alert['affected_categories'][number];

const points = (previous: number, current: number): number => round((current - previous) * 100, 6);
const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/**
 * Decides the alerts of a run from its evidence against the baseline. An alert needs BOTH a change past the
 * client's threshold AND statistical significance (p < alpha):
 * - accuracy: the overall paired pass-rate drop (exact McNemar), or a category's drop (McNemar, Holm-adjusted
 *   across categories); the severity is the highest either reaches, and `affected_categories` lists every
 *   category whose drop is significant after Holm, worst first;
 * - latency_p95 and cost_per_case: the ratio current / previous against the warning and critical ratios, with
 *   the p-value of the evidence's test.
 * The severity (low / medium / high / critical) comes from the size of the change and the strength of the evidence
 * (severityRules.ts). Improvements never alert. Pure.
 */
export function detectRegressions(evidence: RegressionEvidence, thresholds: AlertThresholds): AlertCandidate[] {
  const candidates: AlertCandidate[] = [];
  const accuracy = accuracyAlert(evidence, thresholds);
  if (accuracy) candidates.push(accuracy);
  const latency = ratioAlert(
    'latency_p95',
    evidence.latency_p95,
    thresholds.p95_latency_ratio_warning,
    thresholds.p95_latency_ratio_critical,
    thresholds.alpha,
    evidence.paired_cases,
  );
  if (latency) candidates.push(latency);
  const cost = ratioAlert(
    'cost_per_case',
    evidence.cost_per_case,
    thresholds.cost_per_case_ratio_warning,
    thresholds.cost_per_case_ratio_critical,
    thresholds.alpha,
    evidence.paired_cases,
  );
  if (cost) candidates.push(cost);
  for (const criterion of evidence.criteria ?? []) {
    const alert = criterionAlert(criterion, thresholds);
    if (alert) candidates.push(alert);
  }
  return candidates;
}

/**
 * A rubric criterion's alert: its mean score (1-5) dropped by at least `criterion_drop_warning` / `_critical` AND its
 * Holm-adjusted p (across the criteria) is below alpha. One alert per criterion (`criterion`).
 */
function criterionAlert(c: CriterionEvidence, thresholds: AlertThresholds): AlertCandidate | undefined {
  const drop = c.previous - c.current;
  if (!(drop > 0) || !(c.p_value_adjusted < thresholds.alpha)) return undefined;
  const size = dropStep(drop, thresholds.criterion_drop_warning, thresholds.criterion_drop_critical);
  if (!size) return undefined;
  const severity = severityFor(size.step, c.p_value_adjusted, thresholds.alpha);
  const threshold = size.threshold;
  const change = round(c.current - c.previous, 6);
  return {
    metric: 'criterion_score',
    criterion: c.criterion,
    severity,
    previous: c.previous,
    current: c.current,
    change,
    change_unit: 'score_points',
    threshold,
    p_value: c.p_value_adjusted,
    test: CRITERION_TEST,
    affected_categories: [],
    paired_cases: c.paired_cases,
    message:
      `criterion ${c.criterion} ${formatValue('criterion_score', c.previous)} → ${formatValue('criterion_score', c.current)} (${formatScorePoints(change)}, ${CRITERION_TEST} ${formatPValue(c.p_value_adjusted)}) ` +
      `on ${c.paired_cases} paired cases; ${severity}: passed the ${threshold} drop threshold`,
  };
}

function accuracyAlert(evidence: RegressionEvidence, thresholds: AlertThresholds): AlertCandidate | undefined {
  const overall = evidence.accuracy;
  const affected: AffectedCategory[] = evidence.categories
    .filter((c) => c.current < c.previous && c.p_value_adjusted < thresholds.alpha)
    .map((c: CategoryEvidence) => ({
      category: c.category,
      previous: c.previous,
      current: c.current,
      change: points(c.previous, c.current),
      p_value_adjusted: c.p_value_adjusted,
    }))
    .sort((a, b) => a.change - b.change || a.category.localeCompare(b.category));
  type Trigger = { severity: AlertSeverity; threshold: number; p_value: number; test: string; what: string };
  const severityOf = (drop: number, p: number) => {
    const size = dropStep(drop, thresholds.accuracy_drop_warning_pts, thresholds.accuracy_drop_critical_pts);
    return size ? { severity: severityFor(size.step, p, thresholds.alpha), threshold: size.threshold } : undefined;
  };
  const triggers: Trigger[] = [];
  if (overall && overall.current < overall.previous && overall.p_value < thresholds.alpha) {
    const outcome = severityOf(-points(overall.previous, overall.current), overall.p_value);
    if (outcome) triggers.push({ ...outcome, p_value: overall.p_value, test: overall.test, what: 'overall' });
  }
  for (const category of affected) {
    const outcome = severityOf(-category.change, category.p_value_adjusted);
    if (outcome)
      triggers.push({
        ...outcome,
        p_value: category.p_value_adjusted,
        test: `${overall?.test ?? 'exact McNemar'}, Holm-adjusted across categories`,
        what: category.category,
      });
  }
  if (triggers.length === 0 || !overall) return undefined;
  // the highest severity decides; on a tie the overall change (listed first) does
  const decisive = triggers.reduce((best, t) => (severityRank(t.severity) > severityRank(best.severity) ? t : best));
  const change = points(overall.previous, overall.current);
  const categories = affected.length
    ? `; ${affected.map((c) => `${c.category} ${formatPoints(c.change)} (${formatPValue(c.p_value_adjusted)}, Holm)`).join(', ')}`
    : '';
  const reason = decisive.what === 'overall' ? 'the overall drop' : `the drop in ${decisive.what}`;
  return {
    metric: 'accuracy',
    severity: decisive.severity,
    previous: overall.previous,
    current: overall.current,
    change,
    change_unit: 'points',
    threshold: decisive.threshold,
    p_value: decisive.p_value,
    test: decisive.test,
    affected_categories: affected,
    paired_cases: evidence.paired_cases,
    message:
      `accuracy ${formatValue('accuracy', overall.previous)} → ${formatValue('accuracy', overall.current)} (${formatPoints(change)}, ${overall.test} ${formatPValue(overall.p_value)}) ` +
      `on ${evidence.paired_cases} paired cases${categories}; ${decisive.severity}: ${reason} passed the ${decisive.threshold}-point threshold`,
  };
}

function ratioAlert(
  metric: 'latency_p95' | 'cost_per_case',
  evidence: MetricEvidence | null,
  warning: number,
  critical: number,
  alpha: number,
  paired: number,
): AlertCandidate | undefined {
  if (!evidence || !(evidence.previous > 0) || !(evidence.p_value < alpha)) return undefined;
  const ratio = evidence.current / evidence.previous;
  const size = ratioStep(ratio, warning, critical);
  if (!size) return undefined;
  const outcome = { severity: severityFor(size.step, evidence.p_value, alpha), threshold: size.threshold };
  const label = metric === 'latency_p95' ? 'p95 latency' : 'cost per case';
  return {
    metric,
    severity: outcome.severity,
    previous: evidence.previous,
    current: evidence.current,
    change: round(ratio, 6),
    change_unit: 'ratio',
    threshold: outcome.threshold,
    p_value: evidence.p_value,
    test: evidence.test,
    affected_categories: [],
    paired_cases: paired,
    message:
      `${label} ${formatValue(metric, evidence.previous)} → ${formatValue(metric, evidence.current)} (×${ratio.toFixed(2)}, ${evidence.test} ${formatPValue(evidence.p_value)}) ` +
      `on ${paired} paired cases; ${outcome.severity}: passed ×${outcome.threshold}`,
  };
}
