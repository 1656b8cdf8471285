import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CONTENT_SECURITY_POLICY, dashboardAsset, dashboardConfigFromEnv } from './dashboardAssets.js';
import { hostJsonRoutePrefix } from '../app/hostJsonRoutePrefix.js';

let root: string;
let web: string;
const NO_ENTRA = { entra: null };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'evalp-web-'));
  web = join(root, 'web');
  await mkdir(join(web, 'assets'), { recursive: true });
  await writeFile(join(web, 'index.html'), '<!doctype html><title>x</title>');
  await writeFile(join(web, 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(join(root, 'secret.txt'), 'outside');
});

afterAll(async () => rm(root, { recursive: true, force: true }));

describe('dashboardAsset', () => {
  it.each<[string | undefined, number, string, string]>([
    [undefined, 200, 'text/html; charset=utf-8', 'no-cache'],
    ['', 200, 'text/html; charset=utf-8', 'no-cache'],
    ['index.html', 200, 'text/html; charset=utf-8', 'no-cache'],
    ['assets/index-abc123.js', 200, 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
    ['config.json', 200, 'application/json; charset=utf-8', 'no-cache'],
    ['assets/missing.js', 404, 'text/plain; charset=utf-8', 'no-store'],
    ['../secret.txt', 404, 'text/plain; charset=utf-8', 'no-store'],
    ['assets/../../secret.txt', 404, 'text/plain; charset=utf-8', 'no-store'],
    ['api/v1/nope', 404, 'application/problem+json', 'no-store'],
    ['api', 404, 'application/problem+json', 'no-store'],
  ])('%s -> %i', async (path, status, type, cache) => {
    const a = await dashboardAsset(web, path, NO_ENTRA);
    expect([a.status, a.headers['content-type'], a.headers['cache-control']]).toEqual([status, type, cache]);
    expect(a.headers['content-security-policy']).toBe(DASHBOARD_CONTENT_SECURITY_POLICY);
    expect(a.headers['x-content-type-options']).toBe('nosniff');
    expect(String(a.body)).not.toContain('outside');
  });

  it('answers 503 naming the build command when the dashboard is not built', async () => {
    const a = await dashboardAsset(join(root, 'nothing'), '', NO_ENTRA);
    expect(a.status).toBe(503);
    expect(String(a.body)).toContain('npm run build:web');
  });

  it('allows no inline script or style and no framing', () => {
    expect(DASHBOARD_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(DASHBOARD_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });
});

describe('dashboardConfigFromEnv', () => {
  it.each<[Record<string, string>, ReturnType<typeof dashboardConfigFromEnv>]>([
    [{}, { entra: null }],
    [{ EVALP_DASHBOARD_ENTRA_CLIENT_ID: 'spa' }, { entra: null }],
    [
      { EVALP_DASHBOARD_ENTRA_CLIENT_ID: 'spa', EVALP_AUTH_ENTRA_TENANT_ID: 't', EVALP_AUTH_ENTRA_AUDIENCE: 'api://evalp,abc' },
      { entra: { client_id: 'spa', tenant_id: 't', scopes: ['api://evalp/.default'] } },
    ],
    [
      { EVALP_DASHBOARD_ENTRA_CLIENT_ID: 'spa', EVALP_AUTH_ENTRA_TENANT_ID: 't', EVALP_AUTH_ENTRA_AUDIENCE: '1111-2222' },
      { entra: { client_id: 'spa', tenant_id: 't', scopes: ['api://1111-2222/.default'] } },
    ],
    [
      {
        EVALP_DASHBOARD_ENTRA_CLIENT_ID: 'spa',
        EVALP_AUTH_ENTRA_TENANT_ID: 't',
        EVALP_DASHBOARD_ENTRA_SCOPES: 'api://x/Runs.Read, api://x/Cases.Write',
      },
      { entra: { client_id: 'spa', tenant_id: 't', scopes: ['api://x/Runs.Read', 'api://x/Cases.Write'] } },
    ],
  ])('%j', (env, expected) => {
    expect(dashboardConfigFromEnv(env)).toEqual(expected);
  });
});

describe('hostJsonRoutePrefix', () => {
  it('reads host.json (the platform sets "" so the dashboard answers /) and defaults to api like the Functions host', async () => {
    expect(hostJsonRoutePrefix()).toBe('');
    await writeFile(join(root, 'host.json'), JSON.stringify({ version: '2.0' }));
    expect(hostJsonRoutePrefix(root)).toBe('api');
    await writeFile(join(root, 'host.json'), JSON.stringify({ version: '2.0', extensions: { http: { routePrefix: 7 } } }));
    expect(() => hostJsonRoutePrefix(root)).toThrow(/routePrefix must be a string/);
  });
});
