import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './apiTestPlatform.test-helpers.js';

let api: TestApi;
let admin: string;

const weather = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const catalog = (version: string, tools: unknown[] = [weather]) => ({ name: 'shop', tool_schema_version: version, tools });

beforeAll(async () => {
  api = await startTestApi();
  admin = api.keys['test-admin'];
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

describe('tool-catalogs', () => {
  it('creates a version: 201 at /tool-catalogs/{name}/versions/{version}, defaults applied, stored as name@version', async () => {
    const r = await api.call('POST', 'v1/tool-catalogs', { key: admin, body: catalog('2024-06') });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${api.platform.url}/api/v1/tool-catalogs/shop/versions/2024-06`);
    expect(r.json).toEqual({ id: 'shop@2024-06', ...catalog('2024-06') });
    const got = await api.call('GET', 'v1/tool-catalogs/shop/versions/2024-06');
    expect([got.status, got.headers.get('etag'), got.json]).toEqual([200, r.headers.get('etag'), r.json]);
    expect(await api.platform.services.stores.catalogs.get('shop@2024-06')).toMatchObject({ id: 'shop@2024-06', tools: [weather] });
  });

  it('a second version is a second catalog; the list pages through both', async () => {
    expect((await api.call('POST', 'v1/tool-catalogs', { key: admin, body: { ...catalog('2024-07'), description: 'July' } })).status).toBe(
      201,
    );
    const page = await api.call('GET', 'v1/tool-catalogs?limit=1');
    expect({ ...page.json, items: page.json.items.map((c: { id: string }) => c.id) }).toEqual({
      items: ['shop@2024-06'],
      total: 2,
      has_more: true,
      limit: 1,
      offset: 0,
    });
    expect((await api.call('POST', 'v1/tool-catalogs', { key: admin, body: catalog('2024-07') })).status).toBe(409);
  });

  it.each<[string, unknown, string[]]>([
    ['duplicate tool names', catalog('9', [weather, weather]), ['body.tools.1.name']],
    [
      'a parameters schema that does not compile',
      catalog('9', [{ name: 'x', parameters: { type: 'object', properties: { a: { type: 'no-such-type' } } } }]),
      ['body.tools.0.parameters'],
    ],
    ['a bad tool name', catalog('9', [{ name: 'has space' }]), ['body.tools.0.name']],
    ['a version with a slash', catalog('1/2'), ['body.tool_schema_version']],
    ['no tools', { name: 'shop', tool_schema_version: '9' }, ['body.tools']],
    ['an unknown field', { ...catalog('9'), owner: 'me' }, ['body']],
  ])('400 for %s', async (_why, body, paths) => {
    const r = await api.call('POST', 'v1/tool-catalogs', { key: admin, body });
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual(paths);
    expect((await api.call('GET', 'v1/tool-catalogs/shop/versions/9')).status).toBe(404);
  });

  it('PUT replaces a version (name and version from the path; a different one in the body is 400), If-Match checked', async () => {
    const before = await api.call('GET', 'v1/tool-catalogs/shop/versions/2024-07');
    const tools = [weather, { name: 'get_time', description: '', parameters: { type: 'object', properties: {} } }];
    const put = await api.call('PUT', 'v1/tool-catalogs/shop/versions/2024-07', {
      key: admin,
      headers: { 'if-match': before.headers.get('etag')! },
      body: { tools },
    });
    expect([put.status, put.json]).toEqual([200, { id: 'shop@2024-07', name: 'shop', tool_schema_version: '2024-07', tools }]);
    const stale = await api.call('PUT', 'v1/tool-catalogs/shop/versions/2024-07', {
      key: admin,
      headers: { 'if-match': before.headers.get('etag')! },
      body: { tools: [] },
    });
    expect(stale.status).toBe(412);
    const renamed = await api.call('PUT', 'v1/tool-catalogs/shop/versions/2024-07', {
      key: admin,
      body: { name: 'other', tool_schema_version: '1', tools: [] },
    });
    expect([renamed.status, renamed.json.errors.map((e: { path: string }) => e.path)]).toEqual([
      400,
      ['body.name', 'body.tool_schema_version'],
    ]);
    expect((await api.call('PUT', 'v1/tool-catalogs/shop/versions/none', { key: admin, body: { tools: [] } })).status).toBe(404);
  });

  it('roles: reader reads; suite-admin and platform-admin may not write; no key is 401', async () => {
    expect((await api.call('GET', 'v1/tool-catalogs', { key: null })).status).toBe(401);
    expect((await api.call('GET', 'v1/tool-catalogs/shop/versions/2024-06', { key: api.keys.reader })).status).toBe(200);
    for (const role of ['reader', 'suite-admin', 'platform-admin'] as const) {
      expect((await api.call('POST', 'v1/tool-catalogs', { key: api.keys[role], body: catalog('x') })).status).toBe(403);
      expect((await api.call('DELETE', 'v1/tool-catalogs/shop/versions/2024-06', { key: api.keys[role] })).status).toBe(403);
    }
  });

  it('delete is 409 while a target uses the version, then 204, idempotent', async () => {
    const { stores, clock } = api.platform.services;
    const now = clock.now().toISOString();
    await stores.targets.upsert({
      id: 'bot',
      name: 'bot',
      settings: { kind: 'replay', outputs_path: 'x.jsonl' },
      tool_catalog: { name: 'shop', version: '2024-06' },
      client_type: 'custom',
      timeout_ms: 1000,
      max_retries: 0,
      rate_limit: { requests_per_second: 1, max_in_flight: 1 },
      created_at: now,
      updated_at: now,
    });
    const blocked = await api.call('DELETE', 'v1/tool-catalogs/shop/versions/2024-06', { key: admin });
    expect([blocked.status, blocked.json.detail]).toEqual([
      409,
      'tool catalog "shop@2024-06" is still used by target "bot"; change or delete it first',
    ]);
    expect((await api.call('DELETE', 'v1/tool-catalogs/shop/versions/2024-07', { key: admin })).status).toBe(204);
    expect((await api.call('DELETE', 'v1/tool-catalogs/shop/versions/2024-07', { key: admin })).status).toBe(204);
    expect((await api.call('GET', 'v1/tool-catalogs/shop/versions/2024-07')).status).toBe(404);
    await stores.targets.delete('bot');
    expect((await api.call('DELETE', 'v1/tool-catalogs/shop/versions/2024-06', { key: admin })).status).toBe(204);
  });
});
