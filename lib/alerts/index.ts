export * from './thresholds.js';
export * from './severityRules.js';
export { severityRank } from '../domain/index.js';
export { acknowledgeAlert } from './acknowledgeAlert.js';
export { alertFacts, type AlertFacts } from './notify/alertFacts.js';
export { formatNotification } from './notify/formatNotification.js';
export { slackMessage } from './notify/slackMessage.js';
export { teamsMessage } from './notify/teamsMessage.js';
export { postWebhook, type WebhookAnswer, type PostWebhookOptions } from './notify/postWebhook.js';
export {
  ALERT_NOTIFICATIONS_QUEUE,
  NotificationMessageSchema,
  notificationMessage,
  webhookKey,
  type NotificationMessage,
} from './notify/notificationQueue.js';
export { queueNotifications, type QueueNotificationsDeps } from './notify/queueNotifications.js';
export {
  deliverNotification,
  DEFAULT_DELIVERY_OPTIONS,
  type DeliveryDeps,
  type DeliveryOptions,
  type DeliveryResult,
} from './notify/deliverNotification.js';
export { deliveryOptionsFromEnv } from './notify/deliveryOptionsFromEnv.js';
export { summarizeDelivery, refreshAlertDelivery } from './notify/alertDelivery.js';
export { checkRunRegressions } from './checkRunRegressions.js';
export { modelVersionNote } from './modelVersionNote.js';
export { liveRegressionChecks } from './liveRegressionChecks.js';
export { queueRunEmails } from './notify/queueRunEmails.js';
export { alertEmail, runEmail } from './notify/emailMessage.js';
export { checkLatencySlos, runSloCompliance } from './checkLatencySlos.js';
export { SloComplianceFold, sloComplianceOf, SLO_QUANTILE, SLO_TEST, type SloOutcome } from './sloCompliance.js';
