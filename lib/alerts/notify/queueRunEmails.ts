import { AlertSeveritySchema, type AlertNotification, type Client, type Run } from '../../domain/index.js';
import { ConflictError, type Clock, type QueuePort, type Stores } from '../../ports/index.js';
import { ALERT_NOTIFICATIONS_QUEUE, notificationMessage, webhookKey } from './notificationQueue.js';

/**
 * The outbox step when a run finishes: one e-mail notification (`about: 'run'`, alert_id = the run's id) per e-mail
 * address of the run's client, sent through the same queue, retries and records as alert notifications. Idempotent
 * (deterministic ids `run:<run id>:<address key>`; a repeated call sends nothing twice). Returns those queued now.
 */
export async function queueRunEmails(
  run: Pick<Run, 'id'>,
  client: Pick<Client, 'notify'> | null | undefined,
  deps: { stores: Pick<Stores, 'alerts'>; queue: QueuePort; clock: Clock },
): Promise<AlertNotification[]> {
  const now = deps.clock.now().toISOString();
  const created: AlertNotification[] = [];
  for (const target of client?.notify ?? []) {
    if (target.kind !== 'email') continue;
    const url = `mailto:${target.address}`;
    const notification: AlertNotification = {
      id: `run:${run.id}:${webhookKey(url)}`,
      alert_id: run.id,
      about: 'run',
      severity: AlertSeveritySchema.options[0]!,
      target_key: webhookKey(url),
      url,
      format: 'email',
      status: 'pending',
      attempts: 0,
      last_error: null,
      last_status: null,
      next_attempt_at: null,
      delivered_at: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await deps.stores.alerts.createNotification(notification);
      created.push(notification);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
    }
  }
  const unsent = (await deps.stores.alerts.listNotifications(run.id)).filter((n) => n.status === 'pending' && n.attempts === 0);
  if (unsent.length > 0)
    await deps.queue.sendMessages(
      ALERT_NOTIFICATIONS_QUEUE,
      unsent.map((n) => notificationMessage(n.id, 1)),
    );
  return created;
}
