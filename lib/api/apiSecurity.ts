import type { Services } from '../ports/index.js';
import { auditRecordOf } from './audit.js';
import { ApiAuthenticator } from './authenticate.js';
import { apiSecuritySettingsFromEnv, type ApiSecuritySettings } from './apiSecuritySettings.js';
import type { Principal } from '../domain/index.js';
import type { ApiResult, RouteDefinition } from './route.js';

const byServices = new WeakMap<Services, ApiAuthenticator>();

/**
 * Sets how the API authenticates and throttles calls for these services (the embedded platform and the Azure
 * composition call it at start with `apiSecuritySettingsFromEnv(env)`; tests with their own settings).
 * Replaces what was set before (and with it the rate-limit buckets).
 */
export function configureApiSecurity(services: Services, settings: ApiSecuritySettings): ApiAuthenticator {
  const authenticator = new ApiAuthenticator(services.apiKeys, settings);
  byServices.set(services, authenticator);
  return authenticator;
}

/** The authenticator of these services; configured from `process.env` on first use when nobody configured it. */
export function apiAuthenticatorFor(services: Services): ApiAuthenticator {
  return byServices.get(services) ?? configureApiSecurity(services, apiSecuritySettingsFromEnv(process.env));
}

/**
 * Appends the audit record of a change (a successful non-GET call; see audit.ts) to the audit store. A failed
 * write is logged, not answered: the change itself has been made.
 */
export async function recordAudit(
  services: Services,
  input: { route: RouteDefinition; principal: Principal | undefined; params: unknown; result: ApiResult; requestId: string },
  log?: (msg: string) => void,
): Promise<void> {
  const record = auditRecordOf({ ...input, at: services.clock.now().toISOString() });
  if (!record) return;
  try {
    await services.stores.audit.createAuditRecord(record);
  } catch (err) {
    log?.(`audit: could not record ${record.route} ${record.entity_id ?? ''} by ${record.actor.id}: ${(err as Error).message}`);
  }
}
