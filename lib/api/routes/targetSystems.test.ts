import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './apiTestPlatform.test-helpers.js';

let api: TestApi;
let admin: string;
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/);

const agent = {
  id: 'router',
  name: 'Router agent',
  settings: { kind: 'http', url: 'http://127.0.0.1:9/agent', headers: { Authorization: { env: 'AGENT_TOKEN' }, 'X-Client': 'evalp' } },
};

/** The target as stored and returned: the domain defaults filled in. */
const stored = (overrides: Record<string, unknown> = {}) => ({
  id: 'router',
  name: 'Router agent',
  settings: {
    kind: 'http',
    url: 'http://127.0.0.1:9/agent',
    method: 'POST',
    headers: { Authorization: { env: 'AGENT_TOKEN' }, 'X-Client': 'evalp' },
    request_template: '{"question": {{question}}}',
    response: { answer_path: '$.answer' },
  },
  client_type: 'custom',
  timeout_ms: 30000,
  max_retries: 3,
  rate_limit: { requests_per_second: 50, max_in_flight: 16 },
  created_at: ISO,
  updated_at: ISO,
  ...overrides,
});

beforeAll(async () => {
  api = await startTestApi();
  admin = api.keys['platform-admin'];
  const { stores } = api.platform.services;
  await stores.catalogs.upsert({ id: 'shop@1', name: 'shop', tool_schema_version: '1', tools: [] });
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

describe('target-systems CRUD', () => {
  it('creates a target with secret references: 201, Location, ETag, defaults applied', async () => {
    const r = await api.call('POST', 'v1/target-systems', { key: admin, body: agent });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${api.platform.url}/api/v1/target-systems/router`);
    expect(r.headers.get('etag')).toMatch(/^".+"$/);
    expect(r.json).toEqual(stored());
    const got = await api.call('GET', 'v1/target-systems/router');
    expect([got.status, got.json, got.headers.get('etag')]).toEqual([200, stored(), r.headers.get('etag')]);
    expect(JSON.stringify(got.json)).not.toContain('_etag');
  });

  it('409 for an existing id; 404 for a missing one', async () => {
    expect((await api.call('POST', 'v1/target-systems', { key: admin, body: agent })).status).toBe(409);
    expect((await api.call('GET', 'v1/target-systems/none')).status).toBe(404);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a literal OpenAI API key', { kind: 'openai', model: 'gpt-4o', api_key: 'sk-live-123456' }, 'body.settings.api_key'],
    [
      'a literal Authorization header',
      { kind: 'http', url: 'http://127.0.0.1:9/a', headers: { Authorization: 'Bearer tok-123456' } },
      'body.settings.headers.Authorization',
    ],
    [
      'a literal x-api-key header',
      { kind: 'http', url: 'http://127.0.0.1:9/a', headers: { 'x-api-key': 'tok-123456' } },
      'body.settings.headers.x-api-key',
    ],
    ['a password in the URL', { kind: 'http', url: 'http://user:tok-123456@127.0.0.1:9/a' }, 'body.settings.url'],
    ['a key in the query', { kind: 'http', url: 'http://127.0.0.1:9/a?code=tok-123456' }, 'body.settings.url'],
    [
      'a key in the base URL',
      { kind: 'openai', model: 'm', base_url: 'http://127.0.0.1:9/v1?api-key=tok-123456' },
      'body.settings.base_url',
    ],
  ])('refuses %s with 400 naming the field, never echoing the value', async (_why, settings, path) => {
    const r = await api.call('POST', 'v1/target-systems', { key: admin, body: { id: 'leaky', name: 'leaky', settings } });
    expect(r.status).toBe(400);
    expect(r.json.errors).toContainEqual({ path, message: expect.stringMatching(/literal|credential/) });
    expect(JSON.stringify(r.json)).not.toContain('tok-123456');
    expect(JSON.stringify(r.json)).not.toContain('sk-live');
    expect((await api.call('GET', 'v1/target-systems/leaky')).status).toBe(404);
  });

  it('refuses a literal secret even when other fields are wrong too', async () => {
    const r = await api.call('POST', 'v1/target-systems', {
      key: admin,
      body: { name: '', settings: { kind: 'openai', model: 'm', api_key: 'sk-x' } },
    });
    expect(r.json.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.name',
      'body.settings.api_key',
      'body.settings.api_key',
    ]);
  });

  it.each<[string, unknown, string[]]>([
    ['an unknown kind', { name: 'x', settings: { kind: 'mcp' } }, ['body.settings.kind']],
    [
      'a bad env reference',
      { name: 'x', settings: { kind: 'openai', model: 'm', api_key: { env: 'not a name' } } },
      ['body.settings.api_key.env'],
    ],
    ['a negative timeout', { name: 'x', settings: { kind: 'replay', outputs_path: 'o.jsonl' }, timeout_ms: -1 }, ['body.timeout_ms']],
    ['a server field', { name: 'x', settings: { kind: 'replay', outputs_path: 'o.jsonl' }, updated_at: '2024-01-01T00:00:00Z' }, ['body']],
  ])('400 for %s', async (_why, body, paths) => {
    const r = await api.call('POST', 'v1/target-systems', { key: admin, body });
    expect([r.status, r.json.errors.map((e: { path: string }) => e.path)]).toEqual([400, paths]);
  });

  it('422 for an unknown tool catalog; a known one is accepted', async () => {
    const body = {
      id: 'cat',
      name: 'c',
      settings: { kind: 'replay', outputs_path: 'o.jsonl' },
      tool_catalog: { name: 'shop', version: '2' },
    };
    const r = await api.call('POST', 'v1/target-systems', { key: admin, body });
    expect([r.status, r.json.errors]).toEqual([422, [{ path: 'body.tool_catalog', message: 'tool catalog "shop@2" does not exist' }]]);
    expect(
      (await api.call('POST', 'v1/target-systems', { key: admin, body: { ...body, tool_catalog: { name: 'shop', version: '1' } } })).status,
    ).toBe(201);
  });

  it('PUT replaces (created_at kept, new ETag); a stale If-Match is 412; a literal secret is 400', async () => {
    const before = await api.call('GET', 'v1/target-systems/router');
    const { id: _id, ...fields } = agent;
    const put = await api.call('PUT', 'v1/target-systems/router', {
      key: admin,
      headers: { 'if-match': before.headers.get('etag')! },
      body: { ...fields, max_retries: 0 },
    });
    expect([put.status, put.json]).toEqual([200, stored({ max_retries: 0, created_at: before.json.created_at })]);
    const stale = await api.call('PUT', 'v1/target-systems/router', {
      key: admin,
      headers: { 'if-match': before.headers.get('etag')! },
      body: fields,
    });
    expect(stale.status).toBe(412);
    const leak = await api.call('PUT', 'v1/target-systems/router', {
      key: admin,
      body: { ...fields, settings: { ...agent.settings, headers: { Authorization: 'Bearer abc' } } },
    });
    expect([leak.status, leak.json.errors[0].path]).toEqual([400, 'body.settings.headers.Authorization']);
    expect((await api.call('GET', 'v1/target-systems/router')).json.max_retries).toBe(0);
  });

  it('lists with paging', async () => {
    const r = await api.call('GET', 'v1/target-systems?limit=1&offset=1');
    expect({ ...r.json, items: r.json.items.map((t: { id: string }) => t.id) }).toEqual({
      items: ['router'],
      total: 2,
      has_more: false,
      limit: 1,
      offset: 1,
    });
  });

  it('roles: 401 without a key, 403 for suite-admin and runner writes', async () => {
    expect((await api.call('GET', 'v1/target-systems', { key: null })).status).toBe(401);
    expect((await api.call('POST', 'v1/target-systems', { key: api.keys['suite-admin'], body: agent })).status).toBe(403);
    expect((await api.call('DELETE', 'v1/target-systems/router', { key: api.keys.runner })).status).toBe(403);
    expect((await api.call('POST', 'v1/target-systems/router/test', { key: api.keys.runner, body: {} })).status).toBe(403);
  });

  it('delete is 409 naming the client that uses it, then 204 and idempotent', async () => {
    const { stores, clock } = api.platform.services;
    const now = clock.now().toISOString();
    await stores.suites.upsert({ id: 's', name: 's', kind: 'static', test_case_ids: [], created_at: now, updated_at: now });
    await stores.clients.upsert({
      id: 'team-b',
      name: 'B',
      suite_ids: ['s'],
      target_id: 'router',
      notify: [],
      created_at: now,
      updated_at: now,
    });
    const blocked = await api.call('DELETE', 'v1/target-systems/router', { key: admin });
    expect([blocked.status, blocked.json.detail]).toEqual([
      409,
      'target system "router" is still used by client "team-b"; change or delete it first',
    ]);
    await stores.clients.delete('team-b');
    expect((await api.call('DELETE', 'v1/target-systems/router', { key: admin })).status).toBe(204);
    expect((await api.call('DELETE', 'v1/target-systems/router', { key: admin })).status).toBe(204);
    expect((await api.call('GET', 'v1/target-systems/router')).status).toBe(404);
  });
});
