import type { ApiKeyStore } from '../ports/index.js';
import { authenticateApiKey, presentedKey } from './apiKeys.js';
import type { ApiSecuritySettings } from './apiSecuritySettings.js';
import { EntraTokenError, createEntraIdVerifier, type EntraIdVerifier } from './entraId.js';
import { ApiError } from './problem.js';
import { PrincipalRateLimiter } from './rateLimit.js';
import { allows, type Principal, type Role } from '../domain/index.js';
import { AuthFailureLimiter, requestSource } from './authFailureLimit.js';

type Headers = { get(name: string): string | null };

/** A bearer that looks like a JWT (three base64url segments) goes to Entra ID; anything else is an API key. */
export function isJwtShaped(credential: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(credential);
}

/**
 * Authentication, authorisation and throttling of API calls, built once per Services from ApiSecuritySettings.
 * `authorize` answers with the caller's principal or throws the ApiError to send: 401 (nothing presented, a key
 * that is unknown, revoked or switched off, a token Entra ID validation refuses), 429 (the source made too many
 * failed attempts, see authFailureLimit.ts, or the principal's bucket is empty; `Retry-After` in seconds), 403 (the principal lacks the route's role; a token without app roles).
 */
export class ApiAuthenticator {
  private readonly entra: EntraIdVerifier | undefined;
  private readonly limiter: PrincipalRateLimiter | undefined;
  private readonly failures: AuthFailureLimiter;

  constructor(
    private readonly apiKeys: ApiKeyStore,
    readonly settings: ApiSecuritySettings,
  ) {
    this.entra = settings.entra ? createEntraIdVerifier(settings.entra) : undefined;
    this.limiter = settings.rateLimit ? new PrincipalRateLimiter(settings.rateLimit) : undefined;
    this.failures = new AuthFailureLimiter(settings.authFailures);
  }

  async authorize(role: Role, headers: Headers): Promise<Principal> {
    // a source that failed too often gets 429 before its credential is even looked at
    const source = requestSource(headers);
    this.failures.check(source);
    let principal: Principal;
    try {
      principal = await this.authenticate(headers);
    } catch (err) {
      // a guess is a credential that was presented and refused; a request without one guesses nothing
      if (err instanceof ApiError && err.status === 401 && presentedKey(headers)?.trim()) this.failures.failed(source);
      throw err;
    }
    const decision = this.limiter?.take(`${principal.kind}:${principal.id}`);
    if (decision && !decision.allowed) {
      const seconds = Math.max(1, Math.ceil(decision.retryAfterInMs / 1000));
      const { requestsPerSecond, burst } = this.limiter!.settings;
      throw new ApiError(
        429,
        'Too Many Requests',
        `rate limit of ${requestsPerSecond} requests/s (burst ${burst}) exceeded for "${principal.name}"; retry in ${seconds} s`,
        [],
        { 'retry-after': String(seconds) },
      );
    }
    if (!allows(principal, role)) {
      const has = principal.roles.length
        ? principal.roles.join(', ')
        : principal.kind === 'entra-id'
          ? 'no EvalPlatform app role'
          : 'no role';
      throw new ApiError(403, 'Forbidden', `this route needs the "${role}" role; "${principal.name}" has ${has}`);
    }
    return principal;
  }

  /** The principal of the credential presented (roles not checked); throws a 401 ApiError otherwise. */
  async authenticate(headers: Headers): Promise<Principal> {
    const credential = presentedKey(headers)?.trim();
    if (!credential) throw unauthorized(this.accepted());
    if (isJwtShaped(credential)) {
      if (!this.entra)
        throw unauthorized('this platform does not accept Entra ID tokens (EVALP_AUTH_ENTRA_TENANT_ID is not set); send an API key');
      try {
        return await this.entra.verify(credential);
      } catch (err) {
        if (err instanceof EntraTokenError) throw unauthorized(`the bearer token was refused: ${err.message}`, 'invalid_token');
        throw err;
      }
    }
    if (!this.settings.apiKeys)
      throw unauthorized('API keys are switched off here (EVALP_AUTH_API_KEYS=off); send an Entra ID bearer token');
    const principal = await authenticateApiKey(this.apiKeys, credential);
    if (!principal) throw unauthorized('the API key is not valid or has been revoked', 'invalid_token');
    return principal;
  }

  private accepted(): string {
    const ways = [
      this.settings.apiKeys ? 'an API key ("Authorization: Bearer <key>" or "x-api-key: <key>")' : undefined,
      this.entra ? 'an Entra ID access token ("Authorization: Bearer <token>")' : undefined,
    ].filter(Boolean);
    return `authentication is required: send ${ways.join(' or ')}`;
  }
}

function unauthorized(detail: string, error?: 'invalid_token'): ApiError {
  return new ApiError(401, 'Unauthorized', detail, [], { 'www-authenticate': error ? `Bearer error="${error}"` : 'Bearer' });
}
