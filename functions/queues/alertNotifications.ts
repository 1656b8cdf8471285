import { app, type InvocationContext } from '@azure/functions';
import { getServices } from '../../lib/app/index.js';
import {
  ALERT_NOTIFICATIONS_QUEUE,
  NotificationMessageSchema,
  deliverNotification,
  deliveryOptionsFromEnv,
} from '../../lib/alerts/index.js';
import { logFields } from '../../lib/telemetry/index.js';
import { SERVICE_BUS_CONNECTION } from '../settings.js';

/**
 * One webhook or e-mail delivery attempt per message. Retries are new scheduled messages (backoff, Retry-After), so a
 * waiting retry survives a restart; a throw (store down) abandons the message and Service Bus redelivers it.
 */
app.serviceBusQueue('alertNotifications', {
  connection: SERVICE_BUS_CONNECTION,
  queueName: ALERT_NOTIFICATIONS_QUEUE,
  handler: async (message: unknown, context: InvocationContext) => {
    const parsed = NotificationMessageSchema.safeParse(message);
    if (!parsed.success) {
      context.error(`alertNotifications: malformed message dropped: ${parsed.error.message}`);
      return;
    }
    const services = await getServices();
    const deps = {
      stores: services.stores,
      queue: services.queue,
      clock: services.clock,
      ...(services.publicUrl ? { publicUrl: services.publicUrl } : {}),
      ...(services.outbound ? { fetch: services.outbound.fetch } : {}),
      ...(services.mailer ? { mailer: services.mailer } : {}),
      runs: services.stores,
    };
    const result = await deliverNotification(parsed.data, deps, deliveryOptionsFromEnv(process.env));
    context.log(
      `alertNotifications: ${result.notification_id} attempt ${result.attempt}: ${result.outcome}${result.next_attempt_at ? ` (next at ${result.next_attempt_at})` : ''}`,
      logFields({ notification_id: result.notification_id }),
    );
  },
});
