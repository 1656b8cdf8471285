import type { Alert } from '../../domain/index.js';

export interface AlertFacts {
  /** e.g. "Critical regression: accuracy of retail-model-b" */
  title: string;
  /** the alert's own message */
  summary: string;
  facts: Array<{ name: string; value: string }>;
  /** where to read the alert (absent when the platform's public URL is unknown) */
  link?: string;
}

const METRIC_LABEL: Record<Alert['metric'], string> = { accuracy: 'accuracy', latency_p95: 'p95 latency', cost_per_case: 'cost per case' };

/** The words and figures every notification format shows, from one alert. */
export function alertFacts(alert: Alert, options: { publicUrl?: string | undefined } = {}): AlertFacts {
  const severity = alert.severity === 'critical' ? 'Critical' : 'Warning';
  const facts = [
    { name: 'Metric', value: METRIC_LABEL[alert.metric] },
    { name: 'Baseline → current', value: `${formatValue(alert.metric, alert.previous)} → ${formatValue(alert.metric, alert.current)}` },
    { name: 'Change', value: `${formatChange(alert)} (threshold ${formatThreshold(alert)})` },
    { name: 'Significance', value: `${formatPValue(alert.p_value)} (${alert.test})` },
    { name: 'Run', value: `${alert.run_id} vs baseline ${alert.baseline_run_id}${alert.live ? ' (live, run in progress)' : ''}` },
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
    title: `${severity} regression: ${METRIC_LABEL[alert.metric]} of ${alert.target_id}`,
    summary: alert.message,
    facts,
    ...(base ? { link: `${base}/api/v1/alerts/${encodeURIComponent(alert.id)}` } : {}),
  };
}

export function formatValue(metric: Alert['metric'], value: number): string {
  if (metric === 'accuracy') return `${(value * 100).toFixed(1)}%`;
  if (metric === 'latency_p95') return `${Math.round(value)} ms`;
  return `$${value.toFixed(value < 0.01 ? 6 : 4)}`;
}

export function formatPoints(points: number): string {
  return `${points > 0 ? '+' : ''}${points.toFixed(1)} pts`;
}

function formatChange(alert: Alert): string {
  return alert.change_unit === 'points' ? formatPoints(alert.change) : `×${alert.change.toFixed(2)}`;
}

function formatThreshold(alert: Alert): string {
  return alert.change_unit === 'points' ? `${alert.threshold} pts drop` : `×${alert.threshold}`;
}

export function formatPValue(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}
