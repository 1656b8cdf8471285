import type { Alert, NotificationFormat } from '../../domain/index.js';
import { alertFacts } from './alertFacts.js';
import { slackMessage } from './slackMessage.js';
import { teamsMessage } from './teamsMessage.js';

type Formatter = (alert: Alert, publicUrl: string | undefined) => unknown;

const FORMATTERS = {
  slack: (alert, publicUrl) => slackMessage(alertFacts(alert, { publicUrl })),
  teams: (alert, publicUrl) => teamsMessage(alertFacts(alert, { publicUrl }), alert.severity),
  // the alert as the API shows it, without its delivery bookkeeping
  json: (alert, publicUrl) => {
    const { delivery: _delivery, _etag: _stored, ...rest } = alert as Alert & { _etag?: string };
    const link = alertFacts(alert, { publicUrl }).link;
    // `severity` at the top too, so a receiver can route on it without reading the alert
    const event = alert.metric === 'latency_slo' ? 'slo_alert' : 'regression_alert';
    return { event, severity: alert.severity, alert: rest, ...(link ? { links: { alert: link } } : {}) };
  },
} satisfies Record<Exclude<NotificationFormat, 'email'>, Formatter>;

/** The JSON body posted to a webhook of `format` for `alert`. */
export function formatNotification(alert: Alert, format: Exclude<NotificationFormat, 'email'>, publicUrl?: string): unknown {
  return FORMATTERS[format](alert, publicUrl);
}
