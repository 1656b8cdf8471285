import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { ROLES, type Principal, type Role } from '../domain/index.js';
import { organizationOfToken, type EntraOrganizationSettings } from './entraOrganization.js';

/** How Entra ID access tokens are validated (settings `EVALP_AUTH_ENTRA_*`, see apiSecuritySettings.ts). */
export interface EntraIdSettings {
  /** the directory (tenant) id the tokens come from */
  tenantId: string;
  /** accepted `aud` values: the app's Application ID URI (`api://...`) and/or its client id */
  audiences: readonly string[];
  /** accepted `iss` values; default the v2.0 and v1.0 issuers of the tenant on the public cloud */
  issuers?: readonly string[];
  /** the signing keys; default `https://login.microsoftonline.com/<tenant>/discovery/v2.0/keys` */
  jwksUrl?: string;
  /** tolerated clock skew for `exp` and `nbf` (default 60 s) */
  clockToleranceInSeconds?: number;
  /** the JWKS request's timeout (default 5000 ms) */
  timeoutInMs?: number;
  /** how a token names its organization (entraOrganization.ts); default: claim `evalp_org`, else `default` */
  organizations?: EntraOrganizationSettings;
}

/** Why a token was refused: a sentence safe to send back (no token content beyond the failing claim's name). */
export class EntraTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EntraTokenError';
  }
}

export interface EntraIdVerifier {
  /** the principal of a valid token (kind `entra-id`, its roles mapped; possibly none); throws EntraTokenError */
  verify(token: string): Promise<Principal>;
}

const PUBLIC_CLOUD = 'https://login.microsoftonline.com';

export function defaultIssuers(tenantId: string): string[] {
  return [`${PUBLIC_CLOUD}/${tenantId}/v2.0`, `https://sts.windows.net/${tenantId}/`];
}

export function defaultJwksUrl(tenantId: string): string {
  return `${PUBLIC_CLOUD}/${tenantId}/discovery/v2.0/keys`;
}

/**
 * Validates Entra ID access tokens with jose: RS256 signature against the tenant's JWKS (fetched on first use,
 * cached 10 minutes, refetched for an unknown `kid` at most every 30 s), `iss`, `aud`, `exp` and `nbf` with the
 * clock tolerance. The `roles` claim (app roles) maps to our roles with `rolesFromClaim`.
 */
export function createEntraIdVerifier(settings: EntraIdSettings): EntraIdVerifier {
  const jwks = createRemoteJWKSet(new URL(settings.jwksUrl ?? defaultJwksUrl(settings.tenantId)), {
    timeoutDuration: settings.timeoutInMs ?? 5000,
  });
  const options = {
    issuer: [...(settings.issuers ?? defaultIssuers(settings.tenantId))],
    audience: [...settings.audiences],
    algorithms: ['RS256'],
    clockTolerance: settings.clockToleranceInSeconds ?? 60,
    requiredClaims: ['exp'],
  };
  return {
    async verify(token) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, jwks, options));
      } catch (err) {
        throw new EntraTokenError(describeJoseError(err));
      }
      const id = stringClaim(payload, 'oid') ?? payload.sub;
      if (!id) throw new EntraTokenError('the token names no principal (no oid or sub claim)');
      const name =
        stringClaim(payload, 'name') ??
        stringClaim(payload, 'preferred_username') ??
        stringClaim(payload, 'upn') ??
        stringClaim(payload, 'azp') ??
        stringClaim(payload, 'appid') ??
        id;
      const org = organizationOfToken(payload, settings.organizations);
      if ('error' in org) throw new EntraTokenError(org.error);
      return { id, name, roles: rolesFromClaim(payload.roles), kind: 'entra-id', organization: org.organization };
    },
  };
}

/**
 * Maps the values of a token's `roles` claim to our roles. An app role matches a role when, ignoring case, an
 * optional `EvalPlatform.` prefix and the characters `-`, `_` and `.`, its value equals the role's name:
 * `EvalPlatform.Reader` and `reader` give reader; `EvalPlatform.TestAdmin`, `test-admin` and `Test_Admin` give
 * test-admin; likewise SuiteAdmin, PlatformAdmin, Runner. Other values are ignored.
 */
export function rolesFromClaim(claim: unknown): Role[] {
  if (!Array.isArray(claim)) return [];
  const roles = new Set<Role>();
  for (const value of claim) {
    if (typeof value !== 'string') continue;
    const role = BY_KEY.get(roleKey(value.replace(/^evalplatform\./i, '')));
    if (role) roles.add(role);
  }
  return ROLES.filter((r) => roles.has(r));
}

const roleKey = (value: string): string => value.toLowerCase().replace(/[-_.]/g, '');
const BY_KEY = new Map<string, Role>(ROLES.map((r) => [roleKey(r), r]));

function stringClaim(payload: JWTPayload, name: string): string | undefined {
  const value = payload[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function describeJoseError(err: unknown): string {
  const e = err as { code?: string; claim?: string; message?: string };
  switch (e.code) {
    case 'ERR_JWT_EXPIRED':
      return 'the token has expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (e.claim === 'nbf') return 'the token is not valid yet (nbf)';
      if (e.claim === 'aud') return 'the token was issued for another audience (aud)';
      if (e.claim === 'iss') return 'the token was issued by another issuer (iss)';
      return `the token's ${e.claim ?? 'claims'} claim is not valid`;
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'the token signature is not valid';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'the token is signed with a key the tenant does not publish (unknown kid)';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'the token is signed with an algorithm other than RS256';
    case 'ERR_JWKS_TIMEOUT':
    case 'ERR_JWKS_INVALID':
      return 'the signing keys of the tenant could not be fetched; try again';
    case 'ERR_JWT_INVALID':
    case 'ERR_JWS_INVALID':
      return 'the token is malformed';
    default:
      return e.code ? `the token is not valid (${e.code})` : 'the signing keys of the tenant could not be fetched; try again';
  }
}
