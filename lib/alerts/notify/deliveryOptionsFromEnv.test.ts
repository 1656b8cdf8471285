import { describe, expect, it } from 'vitest';
import { deliveryOptionsFromEnv } from './deliveryOptionsFromEnv.js';

describe('deliveryOptionsFromEnv', () => {
  it.each<[string, Record<string, string | undefined>, object]>([
    ['nothing set: defaults apply', {}, {}],
    [
      'every setting',
      {
        EVALP_ALERT_WEBHOOK_MAX_RETRIES: '2',
        EVALP_ALERT_WEBHOOK_RETRY_DELAY_MS: '50',
        EVALP_ALERT_WEBHOOK_MAX_RETRY_DELAY_MS: ' 1000 ',
        EVALP_ALERT_WEBHOOK_TIMEOUT_MS: '3000',
      },
      { maxRetries: 2, retryDelayInMs: 50, maxRetryDelayInMs: 1000, timeoutInMs: 3000 },
    ],
    ['zero retries', { EVALP_ALERT_WEBHOOK_MAX_RETRIES: '0' }, { maxRetries: 0 }],
    [
      'not non-negative integers: ignored',
      { EVALP_ALERT_WEBHOOK_MAX_RETRIES: '-1', EVALP_ALERT_WEBHOOK_RETRY_DELAY_MS: '1.5', EVALP_ALERT_WEBHOOK_TIMEOUT_MS: 'soon' },
      {},
    ],
  ])('%s', (_label, env, expected) => {
    expect(deliveryOptionsFromEnv(env)).toEqual(expected);
  });
});
