import type { Rate } from '../domain/index.js';
import type { RunReport } from './reportModel.js';

/** Number formatting shared by the Markdown and HTML reports (plain text; escape before embedding). */

const MINUS = '\u2212';

/** 0.8318 -> "83.2%"; null -> "-" */
export function pct(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '-' : `${(x * 100).toFixed(digits)}%`;
}

/** A pass rate with its interval: "83.2% (78.8–86.9%)" */
export function rateWithInterval(rate: Rate): string {
  if (rate.rate === null) return '-';
  return `${pct(rate.rate)} (${pct(rate.lower)}–${pct(rate.upper)})`;
}

/** A difference of fractions in percentage points with a sign: -0.298 -> "−29.8 pts" */
export function points(diff: number | null | undefined): string {
  if (diff === null || diff === undefined || !Number.isFinite(diff)) return '-';
  const v = diff * 100;
  const text = Math.abs(v).toFixed(1);
  return `${v < 0 && text !== '0.0' ? MINUS : v > 0 && text !== '0.0' ? '+' : '±'}${text} pts`;
}

/** An interval of differences in points: "−8.0 … −1.2" */
export function pointsInterval(lower: number | null | undefined, upper: number | null | undefined): string {
  if (lower === null || lower === undefined || upper === null || upper === undefined) return '-';
  const f = (x: number): string => `${x < 0 ? MINUS : ''}${Math.abs(x * 100).toFixed(1)}`;
  return `${f(lower)} … ${f(upper)}`;
}

/** "< 0.001", "0.012", "1" */
export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '-';
  if (p < 0.001) return '< 0.001';
  return p >= 0.9995 ? '1' : p.toFixed(3);
}

export function ms(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '-' : `${Math.round(x)} ms`;
}

export function usd(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '-';
  return `$${x.toFixed(x !== 0 && Math.abs(x) < 0.01 ? 6 : 4)}`;
}

/** A ratio of two values as a signed percent change: 1.17 -> "+17%" */
export function ratioChange(current: number | null | undefined, previous: number | null | undefined): string {
  if (current === null || current === undefined || previous === null || previous === undefined || !(previous > 0)) return '-';
  const change = (current / previous - 1) * 100;
  return `${change < 0 ? MINUS : '+'}${Math.abs(change).toFixed(0)}%`;
}

/** The headline verdict of a report: critical when the run did not complete or raised a high or critical alert; warning for a low or medium one. */
export function reportVerdict(report: RunReport): { level: 'ok' | 'warning' | 'critical'; icon: string; text: string } {
  const alerts = (report.alerts ?? []).filter((a) => a.status !== 'acknowledged');
  if (report.run.status !== 'completed') return { level: 'critical', icon: '❌', text: `run ${report.run.status}` };
  if (alerts.some((a) => a.severity === 'critical' || a.severity === 'high'))
    return { level: 'critical', icon: '❌', text: `${alerts.some((a) => a.severity === 'critical') ? 'critical' : 'high'}-severity alert` };
  if (alerts.length > 0)
    return { level: 'warning', icon: '⚠️', text: `${alerts.some((a) => a.severity === 'medium') ? 'medium' : 'low'}-severity alert` };
  return { level: 'ok', icon: '✅', text: report.alerts === null ? 'completed' : 'no regression alert' };
}

/** One icon per alert severity (Markdown). */
export const SEVERITY_ICON = { low: '🔵', medium: '🟡', high: '🟠', critical: '🔴' } as const;

/** How an alert's change reads: accuracy in points, the others as a ratio. */
export function alertChange(alert: NonNullable<RunReport['alerts']>[number]): string {
  if (alert.change_unit === 'points') return `${alert.change < 0 ? MINUS : '+'}${Math.abs(alert.change).toFixed(1)} pts`;
  if (alert.change_unit === 'score_points')
    return `${alert.criterion ?? 'criterion'} ${alert.change < 0 ? MINUS : '+'}${Math.abs(alert.change).toFixed(2)} on 1-5`;
  return `×${alert.change.toFixed(2)}`;
}
