import type { JWTPayload } from 'jose';
import { DEFAULT_ORGANIZATION, OrganizationIdSchema } from '../domain/index.js';

/** How an Entra ID token names its organization (settings `EVALP_AUTH_ENTRA_ORG_CLAIM`, `EVALP_AUTH_ENTRA_ORGANIZATIONS`). */
export interface EntraOrganizationSettings {
  /** the claim holding the organization id (default `evalp_org`: an optional claim or directory extension of the app) */
  claim?: string;
  /** a mapping table: object id (`oid`), client id (`azp`/`appid`) or tenant id (`tid`) to organization id */
  mapping?: Readonly<Record<string, string>>;
}

export const DEFAULT_ORGANIZATION_CLAIM = 'evalp_org';

/**
 * The organization of a validated token: the claim when present (it must be a valid organization id, else the
 * token is refused with the reason), else the mapping table by `oid`, then the client id (`azp`, `appid`), then the
 * tenant (`tid`), else `default`. Returns an error sentence instead of throwing, for the verifier to wrap.
 */
export function organizationOfToken(
  payload: JWTPayload,
  settings: EntraOrganizationSettings = {},
): { organization: string } | { error: string } {
  const claim = settings.claim ?? DEFAULT_ORGANIZATION_CLAIM;
  const value = payload[claim];
  if (value !== undefined) {
    const parsed = OrganizationIdSchema.safeParse(value);
    return parsed.success ? { organization: parsed.data } : { error: `the token's ${claim} claim is not an organization id` };
  }
  for (const key of ['oid', 'azp', 'appid', 'tid'] as const) {
    const id = payload[key];
    const mapped = typeof id === 'string' ? settings.mapping?.[id] : undefined;
    if (mapped) return { organization: mapped };
  }
  return { organization: DEFAULT_ORGANIZATION };
}

/** Parses `EVALP_AUTH_ENTRA_ORGANIZATIONS` (`<oid|client id|tenant id>=<organization>,...`); throws naming a bad entry. */
export function parseOrganizationMapping(text: string): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const entry of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [key, org, ...rest] = entry.split('=').map((s) => s.trim());
    if (!key || !org || rest.length > 0 || !OrganizationIdSchema.safeParse(org).success) {
      throw new Error(`EVALP_AUTH_ENTRA_ORGANIZATIONS: "${entry}" is not <object id|client id|tenant id>=<organization id>`);
    }
    mapping[key] = org;
  }
  return mapping;
}
