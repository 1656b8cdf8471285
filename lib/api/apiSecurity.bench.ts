/**
 * Costs of the API's security layer, per request: `npx tsx lib/api/apiSecurity.bench.ts [auditRows=100000]`.
 * Entra ID token validation (RS256, keys from a local JWKS server), the per-principal rate limiter, API-key
 * authentication (SQLite + SHA-256), audit appends and filtered audit pages over `auditRows` records.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { EmbeddedApiKeyStore } from '../adapters/embedded/embeddedApiKeyStore.js';
import { EmbeddedAuditStore } from '../adapters/embedded/auditStore.js';
import { openHostDatabase } from '../host/database.js';
import { systemClock } from '../ports/index.js';
import { authenticateApiKey, createApiKey } from './apiKeys.js';
import { localKeyAuditRecord } from './audit.js';
import { createEntraIdVerifier } from './entraId.js';
import { PrincipalRateLimiter } from './rateLimit.js';

const rows = Number(process.argv[2] ?? 100_000);
const perOp = (label: string, n: number, ms: number): void =>
  console.log(`${label.padEnd(44)} ${((ms * 1000) / n).toFixed(1).padStart(8)} µs/op  (${n} ops)`);

async function time(n: number, op: (i: number) => unknown): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i++) await op(i);
  return performance.now() - started;
}

const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'RS256' };
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const verifier = createEntraIdVerifier({
  tenantId: 't',
  audiences: ['api://x'],
  issuers: ['https://issuer/t/v2.0'],
  jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/keys`,
});
const token = await new SignJWT({ oid: 'o', roles: ['EvalPlatform.Reader'] })
  .setProtectedHeader({ alg: 'RS256', kid: 'k' })
  .setIssuer('https://issuer/t/v2.0')
  .setAudience('api://x')
  .setExpirationTime('1h')
  .sign(privateKey);
await verifier.verify(token);
perOp('Entra ID token validation (RS256, cached JWKS)', 2000, await time(2000, () => verifier.verify(token)));
server.close();

const limiter = new PrincipalRateLimiter({ requestsPerSecond: 1e9, burst: 1e9 });
perOp('rate limiter take (1,000 principals)', 1_000_000, await time(1_000_000, (i) => limiter.take(`p${i % 1000}`)));

const dir = mkdtempSync(join(tmpdir(), 'evalp-sec-bench-'));
try {
  const db = openHostDatabase(dir);
  const keys = new EmbeddedApiKeyStore(db);
  const { key } = await createApiKey(keys, { name: 'bench', roles: ['reader'] }, systemClock);
  perOp('API key authentication (SQLite + SHA-256)', 20_000, await time(20_000, () => authenticateApiKey(keys, key)));

  const audit = new EmbeddedAuditStore(db);
  const actors = Array.from({ length: 50 }, (_, i) => ({ id: `key-${i}`, name: `actor ${i}`, kind: 'api-key' as const }));
  const base = Date.parse('2026-01-01T00:00:00Z');
  const append = await time(rows, (i) =>
    audit.createAuditRecord({
      ...localKeyAuditRecord({ actor: actors[i % 50]!, action: 'create', keyId: `k${i}`, at: new Date(base + i * 1000).toISOString() }),
    }),
  );
  perOp(`audit append (one transaction each, ${rows} rows)`, rows, append);
  const filters = [
    {},
    { actor: 'key-7' },
    { entity_type: 'keys', entity_id: `k${rows >> 1}` },
    { since: new Date(base + (rows >> 1) * 1000).toISOString(), actor: 'actor 3' },
  ];
  for (const f of filters)
    perOp(
      `audit page of 50 ${JSON.stringify(f)}`.slice(0, 44),
      200,
      await time(200, (i) => audit.listAuditRecords(f, { limit: 50, offset: (i % 4) * 50 })),
    );
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
