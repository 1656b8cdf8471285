import { describe, expect, it } from 'vitest';
import { apiSecuritySettingsFromEnv, type ApiSecuritySettings } from './apiSecuritySettings.js';

const T = '11111111-2222-3333-4444-555555555555';

describe('apiSecuritySettingsFromEnv', () => {
  it.each<[string, Record<string, string>, ApiSecuritySettings]>([
    ['nothing set: API keys on, 50 req/s burst 200, no Entra ID', {}, { apiKeys: true, rateLimit: { requestsPerSecond: 50, burst: 200 } }],
    [
      'blank values count as unset',
      { EVALP_AUTH_ENTRA_TENANT_ID: ' ', EVALP_API_RATE_LIMIT_RPS: '' },
      { apiKeys: true, rateLimit: { requestsPerSecond: 50, burst: 200 } },
    ],
    ['rate limit off with 0, keys off', { EVALP_API_RATE_LIMIT_RPS: '0', EVALP_AUTH_API_KEYS: 'off' }, { apiKeys: false }],
    [
      'a custom rate limit',
      { EVALP_API_RATE_LIMIT_RPS: '2.5', EVALP_API_RATE_LIMIT_BURST: '10' },
      { apiKeys: true, rateLimit: { requestsPerSecond: 2.5, burst: 10 } },
    ],
    [
      'Entra ID with the defaults',
      { EVALP_AUTH_ENTRA_TENANT_ID: T, EVALP_AUTH_ENTRA_AUDIENCE: 'api://evalplatform' },
      {
        apiKeys: true,
        rateLimit: { requestsPerSecond: 50, burst: 200 },
        entra: { tenantId: T, audiences: ['api://evalplatform'], organizations: {} },
      },
    ],
    [
      'Entra ID with overrides (a sovereign cloud)',
      {
        EVALP_AUTH_ENTRA_TENANT_ID: T,
        EVALP_AUTH_ENTRA_AUDIENCE: 'api://evalplatform, 6f1c0c3e-0000-0000-0000-000000000001',
        EVALP_AUTH_ENTRA_ISSUER: `https://login.chinacloudapi.cn/${T}/v2.0`,
        EVALP_AUTH_ENTRA_JWKS_URL: `https://login.chinacloudapi.cn/${T}/discovery/v2.0/keys`,
        EVALP_AUTH_ENTRA_CLOCK_SKEW_SECONDS: '120',
      },
      {
        apiKeys: true,
        rateLimit: { requestsPerSecond: 50, burst: 200 },
        entra: {
          tenantId: T,
          audiences: ['api://evalplatform', '6f1c0c3e-0000-0000-0000-000000000001'],
          issuers: [`https://login.chinacloudapi.cn/${T}/v2.0`],
          jwksUrl: `https://login.chinacloudapi.cn/${T}/discovery/v2.0/keys`,
          clockToleranceInSeconds: 120,
          organizations: {},
        },
      },
    ],
  ])('%s', (_label, env, expected) => {
    expect(apiSecuritySettingsFromEnv(env)).toEqual(expected);
  });

  it.each([
    [{ EVALP_AUTH_ENTRA_TENANT_ID: T }, 'EVALP_AUTH_ENTRA_AUDIENCE: required when EVALP_AUTH_ENTRA_TENANT_ID is set'],
    [{ EVALP_AUTH_ENTRA_AUDIENCE: 'api://x' }, 'EVALP_AUTH_ENTRA_TENANT_ID: required when other EVALP_AUTH_ENTRA_* settings are set'],
    [{ EVALP_API_RATE_LIMIT_RPS: 'fast' }, 'EVALP_API_RATE_LIMIT_RPS:'],
    [{ EVALP_API_RATE_LIMIT_BURST: '0' }, 'EVALP_API_RATE_LIMIT_BURST:'],
    [{ EVALP_AUTH_API_KEYS: 'maybe' }, 'EVALP_AUTH_API_KEYS:'],
    [
      { EVALP_AUTH_ENTRA_TENANT_ID: T, EVALP_AUTH_ENTRA_AUDIENCE: 'a', EVALP_AUTH_ENTRA_JWKS_URL: 'not a url' },
      'EVALP_AUTH_ENTRA_JWKS_URL:',
    ],
  ])('refuses %j naming the setting', (env, message) => {
    expect(() => apiSecuritySettingsFromEnv(env)).toThrow(message);
  });
});
