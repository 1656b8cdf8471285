import type { DeliveryOptions } from './deliverNotification.js';

const SETTINGS = {
  EVALP_ALERT_WEBHOOK_MAX_RETRIES: 'maxRetries',
  EVALP_ALERT_WEBHOOK_RETRY_DELAY_MS: 'retryDelayInMs',
  EVALP_ALERT_WEBHOOK_MAX_RETRY_DELAY_MS: 'maxRetryDelayInMs',
  EVALP_ALERT_WEBHOOK_TIMEOUT_MS: 'timeoutInMs',
} as const satisfies Record<string, keyof DeliveryOptions>;

/**
 * Webhook delivery settings from app settings / environment variables (non-negative integers; anything else is
 * ignored and the default applies).
 */
export function deliveryOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): DeliveryOptions {
  const options: DeliveryOptions = {};
  for (const [name, key] of Object.entries(SETTINGS)) {
    const raw = env[name];
    if (raw === undefined || !/^\d+$/.test(raw.trim())) continue;
    options[key] = Number(raw);
  }
  return options;
}
