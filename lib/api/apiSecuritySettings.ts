import { z } from 'zod';
import type { EntraIdSettings } from './entraId.js';
import { parseOrganizationMapping } from './entraOrganization.js';
import type { ApiRateLimitSettings } from './rateLimit.js';
import { DEFAULT_AUTH_FAILURE_LIMIT, type AuthFailureLimitSettings } from './authFailureLimit.js';

/** How the API authenticates and throttles callers. */
export interface ApiSecuritySettings {
  /** accept `evalp_...` API keys (default true) */
  apiKeys: boolean;
  /** accept Entra ID bearer tokens (when a tenant and an audience are set) */
  entra?: EntraIdSettings;
  /** per-principal token bucket; undefined = no limit */
  rateLimit?: ApiRateLimitSettings;
  /** failed authentication attempts per source (default 10 per minute, burst 20) */
  authFailures?: AuthFailureLimitSettings;
}

const blankIsUnset = (value: unknown): unknown => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const list = z.preprocess(
  blankIsUnset,
  z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .optional(),
);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankIsUnset, schema.optional());

/** The app settings read here (environment variables in both hosts), with their defaults. */
export const ApiSecurityEnvSchema = z
  .object({
    EVALP_AUTH_API_KEYS: optional(z.enum(['on', 'off'])),
    EVALP_AUTH_ENTRA_TENANT_ID: optional(z.string().regex(/^[A-Za-z0-9.-]+$/, 'a tenant id (GUID) or domain')),
    EVALP_AUTH_ENTRA_AUDIENCE: list,
    EVALP_AUTH_ENTRA_ISSUER: list,
    EVALP_AUTH_ENTRA_JWKS_URL: optional(z.string().url()),
    EVALP_AUTH_ENTRA_CLOCK_SKEW_SECONDS: optional(z.coerce.number().int().min(0).max(600)),
    EVALP_AUTH_ENTRA_ORG_CLAIM: optional(z.string().regex(/^[A-Za-z0-9_.:/-]+$/, 'a claim name')),
    EVALP_AUTH_ENTRA_ORGANIZATIONS: optional(z.string()),
    EVALP_API_RATE_LIMIT_RPS: optional(z.coerce.number().min(0)),
    EVALP_API_RATE_LIMIT_BURST: optional(z.coerce.number().int().min(1)),
    EVALP_AUTH_FAILURES_PER_MINUTE: optional(z.coerce.number().positive()),
    EVALP_AUTH_FAILURES_BURST: optional(z.coerce.number().int().min(1)),
  })
  .superRefine((env, ctx) => {
    if (env.EVALP_AUTH_ENTRA_TENANT_ID && !env.EVALP_AUTH_ENTRA_AUDIENCE?.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['EVALP_AUTH_ENTRA_AUDIENCE'],
        message: 'required when EVALP_AUTH_ENTRA_TENANT_ID is set (the Application ID URI and/or client id)',
      });
    }
    if (
      !env.EVALP_AUTH_ENTRA_TENANT_ID &&
      (env.EVALP_AUTH_ENTRA_AUDIENCE?.length || env.EVALP_AUTH_ENTRA_ISSUER?.length || env.EVALP_AUTH_ENTRA_JWKS_URL)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['EVALP_AUTH_ENTRA_TENANT_ID'],
        message: 'required when other EVALP_AUTH_ENTRA_* settings are set',
      });
    }
  });

export const DEFAULT_API_RATE_LIMIT: ApiRateLimitSettings = { requestsPerSecond: 50, burst: 200 };

/**
 * Reads the API security settings from the environment; throws an Error naming every malformed setting.
 * `EVALP_API_RATE_LIMIT_RPS=0` switches the rate limit off.
 */
export function apiSecuritySettingsFromEnv(env: Readonly<Record<string, string | undefined>>): ApiSecuritySettings {
  const parsed = ApiSecurityEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`invalid API security settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  const rps = e.EVALP_API_RATE_LIMIT_RPS ?? DEFAULT_API_RATE_LIMIT.requestsPerSecond;
  const settings: ApiSecuritySettings = { apiKeys: e.EVALP_AUTH_API_KEYS !== 'off' };
  if (e.EVALP_AUTH_FAILURES_PER_MINUTE !== undefined || e.EVALP_AUTH_FAILURES_BURST !== undefined) {
    settings.authFailures = {
      perMinute: e.EVALP_AUTH_FAILURES_PER_MINUTE ?? DEFAULT_AUTH_FAILURE_LIMIT.perMinute,
      burst: e.EVALP_AUTH_FAILURES_BURST ?? DEFAULT_AUTH_FAILURE_LIMIT.burst,
    };
  }
  if (rps > 0) settings.rateLimit = { requestsPerSecond: rps, burst: e.EVALP_API_RATE_LIMIT_BURST ?? DEFAULT_API_RATE_LIMIT.burst };
  if (e.EVALP_AUTH_ENTRA_TENANT_ID) {
    settings.entra = {
      tenantId: e.EVALP_AUTH_ENTRA_TENANT_ID,
      audiences: e.EVALP_AUTH_ENTRA_AUDIENCE ?? [],
      ...(e.EVALP_AUTH_ENTRA_ISSUER?.length ? { issuers: e.EVALP_AUTH_ENTRA_ISSUER } : {}),
      ...(e.EVALP_AUTH_ENTRA_JWKS_URL ? { jwksUrl: e.EVALP_AUTH_ENTRA_JWKS_URL } : {}),
      ...(e.EVALP_AUTH_ENTRA_CLOCK_SKEW_SECONDS !== undefined ? { clockToleranceInSeconds: e.EVALP_AUTH_ENTRA_CLOCK_SKEW_SECONDS } : {}),
      organizations: {
        ...(e.EVALP_AUTH_ENTRA_ORG_CLAIM ? { claim: e.EVALP_AUTH_ENTRA_ORG_CLAIM } : {}),
        ...(e.EVALP_AUTH_ENTRA_ORGANIZATIONS ? { mapping: parseOrganizationMapping(e.EVALP_AUTH_ENTRA_ORGANIZATIONS) } : {}),
      },
    };
  }
  return settings;
}
