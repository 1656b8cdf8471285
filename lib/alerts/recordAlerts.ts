import { severityRank, alertId, type Alert, type Client, type Run } from '../domain/index.js';
import { ConflictError, PreconditionFailedError, type Clock, type QueuePort, type Stores } from '../ports/index.js';
import { queueNotifications } from './notify/queueNotifications.js';
import type { AlertCandidate } from './regressionEvidence.js';

export interface RecordAlertsDeps {
  stores: Pick<Stores, 'alerts'>;
  queue: QueuePort;
  clock: Clock;
}

export interface RecordAlertsInput {
  run: Run;
  /** the run compared with; null for alerts on the run alone (latency SLOs) */
  baseline: Run | null;
  client: Client | null | undefined;
  candidates: readonly AlertCandidate[];
  /** true from the change feed (a partial run), false when the run has finished */
  live: boolean;
  /** false: these candidates are not the run's regression check, so its live alerts are not judged by them (SLO alerts) */
  confirmsLive?: boolean;
}

const UNCONFIRMED = 'not confirmed by the finished run; raised live: ';

/**
 * Stores the alerts detection decided, one document per (run, metric): a new alert is created `open`; an
 * existing one (the live alert, or a repeated finalisation) takes the new figures and keeps its status,
 * creation time and delivery, except that an escalation (warning to critical) reopens an acknowledged alert.
 * When the run has finished, a live alert that the final figures do not confirm stays, marked unconfirmed
 * (`live` stays true). Each stored alert then goes to the client's webhooks (`queueNotifications`: once per
 * severity). Idempotent. Returns the alerts raised by these candidates.
 */
export async function recordAlerts(input: RecordAlertsInput, deps: RecordAlertsDeps): Promise<Alert[]> {
  const { alerts } = deps.stores;
  const stored: Alert[] = [];
  for (const candidate of input.candidates) {
    const id = alertId(input.run.id, candidate.metric, candidate.criterion ?? candidate.category);
    const alert = await upsertWithRetry(alerts, id, (existing) => {
      const now = deps.clock.now().toISOString();
      const fresh: Alert = {
        id,
        // the alert belongs to the run's organization (workers run unscoped; the run carries it)
        ...(input.run.organization ? { organization: input.run.organization } : {}),
        run_id: input.run.id,
        baseline_run_id: input.baseline?.id ?? null,
        client_id: input.run.client_id,
        suite_id: input.run.suite_id,
        target_id: input.run.target_id,
        ...candidate,
        live: input.live,
        status: 'open',
        created_at: now,
        updated_at: now,
        acknowledged_at: null,
        acknowledged_by: null,
        delivery: { status: 'none', attempts: 0, last_error: null, delivered_at: null },
      };
      if (!existing) return fresh;
      if (existing.live === false && input.live) return undefined; // a late live check never overwrites the final figures
      const reopen = existing.status === 'acknowledged' && severityRank(candidate.severity) > severityRank(existing.severity);
      return {
        ...fresh,
        created_at: existing.created_at,
        delivery: existing.delivery,
        ...(reopen
          ? {}
          : { status: existing.status, acknowledged_at: existing.acknowledged_at, acknowledged_by: existing.acknowledged_by }),
      };
    });
    if (!alert) continue;
    stored.push(alert);
    await queueNotifications(alert, input.client, deps);
  }
  if (!input.live && input.confirmsLive !== false) await markUnconfirmed(input, deps);
  return stored;
}

async function markUnconfirmed(input: RecordAlertsInput, deps: RecordAlertsDeps): Promise<void> {
  const confirmed = new Set(input.candidates.map((c) => alertId(input.run.id, c.metric, c.criterion)));
  const page = await deps.stores.alerts.listAlerts({ run_id: input.run.id }, { limit: 100 });
  for (const alert of page.items) {
    if (confirmed.has(alert.id) || !alert.live || alert.message.startsWith(UNCONFIRMED)) continue;
    await upsertWithRetry(deps.stores.alerts, alert.id, (existing) =>
      existing && !existing.message.startsWith(UNCONFIRMED)
        ? { ...existing, message: `${UNCONFIRMED}${existing.message}`, updated_at: deps.clock.now().toISOString() }
        : undefined,
    );
  }
}

/** Read, decide, write with an ETag check; re-read on a concurrent write. `decide` returns undefined to leave it. */
async function upsertWithRetry(
  alerts: Stores['alerts'],
  id: string,
  decide: (existing: (Alert & { _etag: string }) | undefined) => Alert | undefined,
): Promise<Alert | undefined> {
  for (let attempt = 0; ; attempt++) {
    const existing = await alerts.getAlert(id);
    const next = decide(existing);
    if (!next) return undefined;
    try {
      const { _etag, ...saved } = existing ? await alerts.replaceAlert(next, { ifMatch: existing._etag }) : await alerts.createAlert(next);
      return saved;
    } catch (err) {
      if (!(err instanceof PreconditionFailedError || err instanceof ConflictError) || attempt >= 5) throw err;
    }
  }
}
