import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from './apiPlatform.test-helpers.js';
import { configureApiSecurity } from './apiSecurity.js';
import type { EntraIdSettings } from './entraId.js';

const TENANT = '11111111-2222-3333-4444-555555555555';
const ISSUER = `https://login.example.test/${TENANT}/v2.0`;
const AUDIENCE = 'api://evalplatform';

let t: TestPlatform;
let jwksServer: Server;
let jwksRequests = 0;
let signingKey: CryptoKey;
let otherKey: CryptoKey;
let entra: EntraIdSettings;

beforeAll(async () => {
  t = await startTestPlatform('evalp-auth-');
  const pair = await generateKeyPair('RS256', { extractable: true });
  ({ privateKey: otherKey } = await generateKeyPair('RS256'));
  signingKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
  jwksServer = createServer((req, res) => {
    jwksRequests++;
    if (req.url !== `/${TENANT}/discovery/v2.0/keys`) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
  const jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/${TENANT}/discovery/v2.0/keys`;
  entra = { tenantId: TENANT, audiences: [AUDIENCE, 'client-id-1'], issuers: [ISSUER], jwksUrl, clockToleranceInSeconds: 60 };
  configureApiSecurity(t.platform.services, { apiKeys: true, entra });
});

afterAll(async () => {
  await t?.stop();
  jwksServer?.close();
});

interface TokenOptions {
  claims?: Record<string, unknown>;
  key?: CryptoKey;
  kid?: string;
  /** seconds from now */
  exp?: number;
  nbf?: number;
  issuer?: string;
  audience?: string;
}

async function token(o: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ oid: 'oid-alice', name: 'Alice', tid: TENANT, roles: ['EvalPlatform.Reader'], ...o.claims })
    .setProtectedHeader({ alg: 'RS256', kid: o.kid ?? 'key-1', typ: 'JWT' })
    .setIssuer(o.issuer ?? ISSUER)
    .setAudience(o.audience ?? AUDIENCE)
    .setSubject('sub-alice')
    .setIssuedAt(now - 60)
    .setExpirationTime(now + (o.exp ?? 3600));
  if (o.nbf !== undefined) jwt.setNotBefore(now + o.nbf);
  return jwt.sign(o.key ?? signingKey);
}

const bearer = async (o: TokenOptions = {}) => `Bearer ${await token(o)}`;

describe('Entra ID bearer tokens (validated against a local JWKS server)', () => {
  it.each<[string, TokenOptions, number, string | undefined]>([
    ['a valid reader token', {}, 200, undefined],
    ['the client id as audience', { audience: 'client-id-1' }, 200, undefined],
    ['a token expired 30 s ago (within the clock skew)', { exp: -30 }, 200, undefined],
    ['an expired token', { exp: -600 }, 401, 'the bearer token was refused: the token has expired'],
    ['a token not valid yet', { nbf: 600 }, 401, 'the bearer token was refused: the token is not valid yet (nbf)'],
    ['a wrong audience', { audience: 'api://other' }, 401, 'the bearer token was refused: the token was issued for another audience (aud)'],
    [
      'a wrong issuer',
      { issuer: 'https://login.example.test/other-tenant/v2.0' },
      401,
      'the bearer token was refused: the token was issued by another issuer (iss)',
    ],
    [
      'a wrong signature (another key, same kid)',
      { key: undefined, kid: 'key-1' },
      401,
      'the bearer token was refused: the token signature is not valid',
    ],
    [
      'an unknown kid',
      { kid: 'key-2' },
      401,
      'the bearer token was refused: the token is signed with a key the tenant does not publish (unknown kid)',
    ],
    ['no roles claim', { claims: { roles: undefined } }, 403, 'this route needs the "reader" role; "Alice" has no EvalPlatform app role'],
    [
      'only roles of other apps',
      { claims: { roles: ['Other.Admin', 'Task.Write'] } },
      403,
      'this route needs the "reader" role; "Alice" has no EvalPlatform app role',
    ],
  ])('GET /api/v1/runs with %s', async (label, options, status, detail) => {
    const o = label.startsWith('a wrong signature') ? { ...options, key: otherKey } : options;
    const r = await t.api('GET', 'v1/runs', { auth: await bearer(o) });
    expect([r.status, r.json.detail]).toEqual([status, detail]);
    if (status === 401)
      expect([r.headers.get('content-type'), r.headers.get('www-authenticate')]).toEqual([
        'application/problem+json',
        'Bearer error="invalid_token"',
      ]);
  });

  it('refuses a token signed with HS256 and a malformed one (401)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const hs = await new SignJWT({ oid: 'x', roles: ['reader'] })
      .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode('a-shared-secret-of-32-bytes-long!'));
    expect((await t.api('GET', 'v1/runs', { auth: `Bearer ${hs}` })).status).toBe(401);
    expect((await t.api('GET', 'v1/runs', { auth: 'Bearer eyJhbGciOiJSUzI1NiJ9.bm90LWpzb24.c2ln' })).status).toBe(401);
  });

  it('maps app roles to roles: a platform-admin token creates a key, audited as the Entra principal; a reader token cannot', async () => {
    const adminToken = await bearer({ claims: { oid: 'oid-bob', name: 'Bob', roles: ['EvalPlatform.PlatformAdmin'] } });
    const created = await t.api('POST', 'v1/keys', { auth: adminToken, body: { name: 'made by bob', roles: ['reader'] } });
    expect(created.status).toBe(201);
    const audit = await t.api('GET', 'v1/audit?actor=oid-bob', { auth: adminToken });
    expect(audit.json.items.map((r: { actor: unknown; action: string; entity_id: string }) => [r.actor, r.action, r.entity_id])).toEqual([
      [{ id: 'oid-bob', name: 'Bob', kind: 'entra-id' }, 'create', created.json.id],
    ]);
    const denied = await t.api('POST', 'v1/keys', { auth: await bearer(), body: { name: 'x', roles: ['reader'] } });
    expect(denied.status).toBe(403);
  });

  it('accepts API keys next to tokens, and fetched the JWKS once for all these tokens', async () => {
    expect((await t.api('GET', 'v1/runs', { key: await t.keyWith(['reader']) })).status).toBe(200);
    // one fetch at first use; the unknown kid may trigger one refetch (jose's 30 s cooldown bounds it)
    expect(jwksRequests).toBeLessThanOrEqual(2);
  });

  it('refuses tokens when Entra ID is not configured, and API keys when they are switched off (401 saying why)', async () => {
    const key = await t.keyWith(['reader']);
    configureApiSecurity(t.platform.services, { apiKeys: true });
    const noEntra = await t.api('GET', 'v1/runs', { auth: await bearer() });
    expect([noEntra.status, noEntra.json.detail]).toEqual([
      401,
      'this platform does not accept Entra ID tokens (EVALP_AUTH_ENTRA_TENANT_ID is not set); send an API key',
    ]);
    configureApiSecurity(t.platform.services, { apiKeys: false, entra });
    const noKeys = await t.api('GET', 'v1/runs', { key });
    expect([noKeys.status, noKeys.json.detail]).toEqual([
      401,
      'API keys are switched off here (EVALP_AUTH_API_KEYS=off); send an Entra ID bearer token',
    ]);
    expect((await t.api('GET', 'v1/runs', { auth: await bearer() })).status).toBe(200);
    const none = await t.api('GET', 'v1/runs');
    expect([none.status, none.json.detail]).toEqual([
      401,
      'authentication is required: send an Entra ID access token ("Authorization: Bearer <token>")',
    ]);
    configureApiSecurity(t.platform.services, { apiKeys: true, entra });
  });
});

describe('rate limit (429 with Retry-After)', () => {
  it('refuses a principal once its bucket is empty, per principal, and serves it again after the refill', async () => {
    configureApiSecurity(t.platform.services, { apiKeys: true, entra, rateLimit: { requestsPerSecond: 1, burst: 3 } });
    try {
      const [a, b] = [await t.keyWith(['reader'], 'busy'), await t.keyWith(['reader'], 'quiet')];
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await t.api('GET', 'v1/runs', { key: a })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await t.api('GET', 'v1/runs', { key: a });
      expect([limited.status, limited.headers.get('content-type'), limited.headers.get('retry-after'), limited.json.detail]).toEqual([
        429,
        'application/problem+json',
        '1',
        'rate limit of 1 requests/s (burst 3) exceeded for "busy"; retry in 1 s',
      ]);
      expect((await t.api('GET', 'v1/runs', { key: b })).status).toBe(200);
      expect((await t.api('GET', 'v1/runs', { auth: await bearer({ claims: { oid: 'oid-carol' } }) })).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await t.api('GET', 'health')).status).toBe(200); // anonymous: not limited
      await new Promise((r) => setTimeout(r, 1100));
      expect((await t.api('GET', 'v1/runs', { key: a })).status).toBe(200);
    } finally {
      configureApiSecurity(t.platform.services, { apiKeys: true, entra });
    }
  });
});
