import type { Alert, AlertSeverity } from '../../domain/index.js';

export interface AlertFacts {
  /** e.g. "Critical regression: accuracy of simulated-model-b", "High: latency SLO (search) of agent" */
  title: string;
  severity: AlertSeverity;
  /** the alert's own message */
  summary: string;
  facts: Array<{ name: string; value: string }>;
  /** where to read the alert (absent when the platform's public URL is unknown) */
  link?: string;
}

const METRIC_LABEL: Record<Alert['metric'], string> = {
  accuracy: 'accuracy',
  latency_p95: 'p95 latency',
  cost_per_case: 'cost per case',
  criterion_score: 'criterion score',
  latency_slo: 'latency SLO',
  budget_spent: 'monthly budget spent',
};

const SEVERITY_LABEL: Record<AlertSeverity, string> = { low: 'Low', medium: 'Medium', high: 'High', critical: 'Critical' };

/** The metric's words, with the criterion for a criterion_score alert ("criterion score: correctness"). */
function metricLabel(alert: Alert): string {
  if (alert.metric === 'criterion_score' && alert.criterion) return `${METRIC_LABEL[alert.metric]}: ${alert.criterion}`;
  if (alert.metric === 'latency_slo' && alert.category) return `${METRIC_LABEL[alert.metric]} (${alert.category})`;
  return METRIC_LABEL[alert.metric];
}

/** The words and figures every notification format shows, from one alert. */
export function alertFacts(alert: Alert, options: { publicUrl?: string | undefined } = {}): AlertFacts {
  const severity = SEVERITY_LABEL[alert.severity];
  const slo = alert.metric === 'latency_slo';
  const facts = [
    { name: 'Severity', value: severity },
    { name: 'Metric', value: metricLabel(alert) },
    slo
      ? { name: 'Target → p95', value: `${formatValue(alert.metric, alert.previous)} → ${formatValue(alert.metric, alert.current)}` }
      : { name: 'Baseline → current', value: `${formatValue(alert.metric, alert.previous)} → ${formatValue(alert.metric, alert.current)}` },
    { name: 'Change', value: `${formatChange(alert)} (threshold ${formatThreshold(alert)})` },
    { name: 'Significance', value: `${formatPValue(alert.p_value)} (${alert.test})` },
    {
      name: 'Run',
      value: `${alert.run_id}${alert.baseline_run_id ? ` vs baseline ${alert.baseline_run_id}` : ''}${alert.live ? ' (live, run in progress)' : ''}`,
    },
    { name: 'Suite / target', value: `${alert.suite_id} / ${alert.target_id}` },
  ];
  if (alert.affected_categories.length > 0) {
    facts.push({
      name: 'Affected categories',
      value: alert.affected_categories
        .map((c) => `${c.category} ${formatPoints(c.change)} (${formatPValue(c.p_value_adjusted)} Holm)`)
        .join(', '),
    });
  }
  const base = options.publicUrl?.replace(/\/+$/, '');
  return {
    title: `${severity} ${slo ? 'SLO violation' : 'regression'}: ${metricLabel(alert)} of ${alert.target_id}`,
    severity: alert.severity,
    summary: alert.message,
    facts,
    ...(base ? { link: `${base}/api/v1/alerts/${encodeURIComponent(alert.id)}` } : {}),
  };
}

export function formatValue(metric: Alert['metric'], value: number): string {
  if (metric === 'accuracy') return `${(value * 100).toFixed(1)}%`;
  if (metric === 'latency_p95' || metric === 'latency_slo') return `${Math.round(value)} ms`;
  if (metric === 'criterion_score') return `${value.toFixed(2)} / 5`;
  return `$${value.toFixed(value < 0.01 ? 6 : 4)}`;
}

export function formatPoints(points: number): string {
  return `${points > 0 ? '+' : ''}${points.toFixed(1)} pts`;
}

/** a change on a criterion's 1-5 scale, e.g. "-0.62" */
export function formatScorePoints(change: number): string {
  return `${change > 0 ? '+' : ''}${change.toFixed(2)}`;
}

function formatChange(alert: Alert): string {
  if (alert.change_unit === 'score_points') return `${formatScorePoints(alert.change)} on 1-5`;
  return alert.change_unit === 'points' ? formatPoints(alert.change) : `×${alert.change.toFixed(2)}`;
}

function formatThreshold(alert: Alert): string {
  if (alert.change_unit === 'score_points') return `${alert.threshold} drop on 1-5`;
  return alert.change_unit === 'points' ? `${alert.threshold} pts drop` : `×${alert.threshold}`;
}

export function formatPValue(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}
