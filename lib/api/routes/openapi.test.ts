import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../platform/embedded.js';
import { silentLogger } from '../../host/index.js';
import { ROUTES } from '../routeTable.js';

let platform: EmbeddedPlatform;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-openapi-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
});

afterAll(async () => {
  await platform?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('GET /api/openapi.json', () => {
  it('serves a valid OpenAPI 3.1 document of every route without a key, with this server as its server URL', async () => {
    const res = await fetch(`${platform.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/json/);
    const doc = (await res.json()) as {
      openapi: string;
      servers: Array<{ url: string }>;
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: platform.url }]);
    const ids = Object.values(doc.paths).flatMap((m) => Object.values(m).map((op) => op.operationId));
    expect(ids.sort()).toEqual(ROUTES.map((r) => r.name).sort());
    const result = await new Validator().validate(doc as Record<string, unknown>);
    expect(result.valid).toBe(true);
  });

  it('is not writable: other methods are not routed', async () => {
    const res = await fetch(`${platform.url}/api/openapi.json`, { method: 'POST' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});
