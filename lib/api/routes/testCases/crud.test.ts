import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../apiTestPlatform.test-helpers.js';

let api: TestApi;
let admin: string;
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/);
const ETAG = expect.stringMatching(/^".+"$/);

const CASE = {
  id: 'w-1',
  nl_query: 'Weather in Paris?',
  expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: { $one_of: ['Paris', 'Paris, FR'] } } }],
  metadata: { tags: ['smoke'], complexity_level: 2, category: 'weather' },
};
/** CASE as stored: schema defaults applied, server timestamps set. */
const STORED = {
  ...CASE,
  alternative_tool_calls: [],
  call_order: 'any',
  expected_facts: [],
  metadata: { ...CASE.metadata, created_at: ISO, updated_at: ISO },
};

beforeAll(async () => {
  api = await startTestApi();
  admin = api.keys['test-admin'];
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

describe('test-cases CRUD', () => {
  it('creates: 201 with Location and ETag, defaults applied, server timestamps; get returns the same with the same ETag', async () => {
    const r = await api.call('POST', 'v1/test-cases', { key: admin, body: CASE });
    expect([r.status, r.headers.get('location'), r.headers.get('etag'), r.json]).toEqual([
      201,
      `${api.platform.url}/api/v1/test-cases/w-1`,
      ETAG,
      STORED,
    ]);
    const got = await api.call('GET', 'v1/test-cases/w-1');
    expect([got.status, got.headers.get('etag'), got.json]).toEqual([200, r.headers.get('etag'), r.json]);
  });

  it('creates with a generated UUID when the body has no id; ids with slashes and spaces work percent-encoded', async () => {
    const { id: _id, ...noId } = CASE;
    const r = await api.call('POST', 'v1/test-cases', { key: admin, body: noId });
    expect([r.status, r.json.id]).toEqual([201, expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    const odd = await api.call('POST', 'v1/test-cases', { key: admin, body: { ...CASE, id: 'bfcl/simple 1' } });
    expect([odd.status, odd.headers.get('location')]).toEqual([201, `${api.platform.url}/api/v1/test-cases/bfcl%2Fsimple%201`]);
    expect((await api.call('GET', 'v1/test-cases/bfcl%2Fsimple%201')).json.id).toBe('bfcl/simple 1');
  });

  it('409 when the id exists, and the stored case is unchanged', async () => {
    const before = await api.call('GET', 'v1/test-cases/w-1');
    const r = await api.call('POST', 'v1/test-cases', { key: admin, body: { ...CASE, nl_query: 'other' } });
    expect([r.status, r.json.detail]).toEqual([409, 'test case "w-1" already exists; change it with PUT /api/v1/test-cases/w-1']);
    expect(await api.call('GET', 'v1/test-cases/w-1')).toMatchObject({ json: before.json, headers: expect.anything() });
  });

  it.each<[string, unknown, string[]]>([
    ['no question', { ...CASE, id: 'x', nl_query: '' }, ['body.nl_query']],
    ['calls that are not a list', { ...CASE, id: 'x', expected_tool_calls: { a: 1 } }, ['body.expected_tool_calls']],
    ['a call without a name', { ...CASE, id: 'x', expected_tool_calls: [{ arguments: {} }] }, ['body.expected_tool_calls.0.tool_name']],
    ['complexity out of range', { ...CASE, id: 'x', metadata: { complexity_level: 9 } }, ['body.metadata.complexity_level']],
    ['an unknown field', { ...CASE, id: 'x', priority: 'high' }, ['body']],
    ['raw data not aligned with the calls', { ...CASE, id: 'x', expected_raw_data: [{}, {}] }, ['body.expected_raw_data']],
  ])('400 for %s, naming the field', async (_why, body, paths) => {
    const r = await api.call('POST', 'v1/test-cases', { key: admin, body });
    expect([r.status, r.headers.get('content-type')]).toEqual([400, 'application/problem+json']);
    expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual(paths);
    expect((await api.call('GET', 'v1/test-cases/x')).status).toBe(404);
  });

  it('replaces with If-Match: new ETag, created_at kept; a stale ETag is 412 and changes nothing', async () => {
    const before = await api.call('GET', 'v1/test-cases/w-1');
    const etag = before.headers.get('etag')!;
    const r = await api.call('PUT', 'v1/test-cases/w-1', {
      key: admin,
      body: { ...CASE, nl_query: 'Weather in Lyon?' },
      headers: { 'if-match': etag },
    });
    expect([r.status, r.json]).toEqual([
      200,
      { ...STORED, nl_query: 'Weather in Lyon?', metadata: { ...STORED.metadata, created_at: before.json.metadata.created_at } },
    ]);
    expect(r.headers.get('etag')).not.toBe(etag);
    const stale = await api.call('PUT', 'v1/test-cases/w-1', {
      key: admin,
      body: { ...CASE, nl_query: 'lost update' },
      headers: { 'if-match': etag },
    });
    expect([stale.status, stale.headers.get('etag')]).toEqual([412, r.headers.get('etag')]);
    expect((await api.call('GET', 'v1/test-cases/w-1')).json.nl_query).toBe('Weather in Lyon?');
    const weak = await api.call('PUT', 'v1/test-cases/w-1', {
      key: admin,
      body: { nl_query: 'Weather in Nice?', expected_tool_calls: [] },
      headers: { 'if-match': `W/${r.headers.get('etag')}` },
    });
    expect([weak.status, weak.json.id, weak.json.nl_query, weak.json.metadata]).toEqual([
      200,
      'w-1',
      'Weather in Nice?',
      { complexity_level: 1, tags: [], created_at: before.json.metadata.created_at, updated_at: ISO },
    ]);
  });

  it('PUT of a missing case is 404; a body id that differs from the path is 400 on body.id', async () => {
    const missing = await api.call('PUT', 'v1/test-cases/nope', { key: admin, body: { ...CASE, id: 'nope' } });
    expect(missing.status).toBe(404);
    const moved = await api.call('PUT', 'v1/test-cases/w-1', { key: admin, body: { ...CASE, id: 'w-2' } });
    expect([moved.status, moved.json.errors]).toEqual([400, [{ path: 'body.id', message: 'must be "w-1" or left out' }]]);
    expect((await api.call('GET', 'v1/test-cases/nope')).status).toBe(404);
  });

  it('duplicates under a new id (given or generated) with another question; 404 for a missing source, 409 for a taken id', async () => {
    const source = (await api.call('GET', 'v1/test-cases/w-1')).json;
    const r = await api.call('POST', 'v1/test-cases/w-1/duplicate', {
      key: admin,
      body: { id: 'w-1-copy', nl_query: 'Weather in Paris tonight?' },
    });
    expect([r.status, r.headers.get('location'), r.headers.get('etag')]).toEqual([
      201,
      `${api.platform.url}/api/v1/test-cases/w-1-copy`,
      ETAG,
    ]);
    expect(r.json).toEqual({
      ...source,
      id: 'w-1-copy',
      nl_query: 'Weather in Paris tonight?',
      metadata: { ...source.metadata, created_at: ISO, updated_at: ISO },
    });
    const generated = await api.call('POST', 'v1/test-cases/w-1/duplicate', { key: admin });
    expect([generated.status, generated.json.id, generated.json.nl_query]).toEqual([
      201,
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      source.nl_query,
    ]);
    expect((await api.call('POST', 'v1/test-cases/nope/duplicate', { key: admin, body: {} })).status).toBe(404);
    const taken = await api.call('POST', 'v1/test-cases/w-1/duplicate', { key: admin, body: { id: 'w-1-copy' } });
    expect([taken.status, taken.json.errors]).toEqual([409, [{ path: 'body.id', message: 'already exists' }]]);
    expect((await api.call('POST', 'v1/test-cases/w-1/duplicate', { key: admin, body: { name: 'x' } })).status).toBe(400);
  });

  it('deletes: 204, idempotent; a stale If-Match is 412 and keeps the case', async () => {
    await api.call('POST', 'v1/test-cases', { key: admin, body: { ...CASE, id: 'gone' } });
    const stale = await api.call('DELETE', 'v1/test-cases/gone', { key: admin, headers: { 'if-match': '"not-the-etag"' } });
    expect(stale.status).toBe(412);
    expect((await api.call('GET', 'v1/test-cases/gone')).status).toBe(200);
    expect((await api.call('DELETE', 'v1/test-cases/gone', { key: admin })).status).toBe(204);
    expect((await api.call('DELETE', 'v1/test-cases/gone', { key: admin })).status).toBe(204);
    expect((await api.call('GET', 'v1/test-cases/gone')).status).toBe(404);
  });
});

describe('test-cases roles', () => {
  const writes: Array<[string, string, unknown]> = [
    ['POST', 'v1/test-cases', { ...CASE, id: 'r-1' }],
    ['PUT', 'v1/test-cases/w-1', CASE],
    ['DELETE', 'v1/test-cases/w-1', undefined],
    ['POST', 'v1/test-cases/w-1/duplicate', {}],
  ];

  it.each(writes)('%s %s: 401 without a key, 403 for reader, runner and suite-admin keys', async (method, path, body) => {
    const noKey = await api.call(method, path, { key: null, body });
    expect([noKey.status, noKey.headers.get('content-type'), noKey.headers.get('www-authenticate')]).toEqual([
      401,
      'application/problem+json',
      'Bearer',
    ]);
    for (const role of ['reader', 'runner', 'suite-admin'] as const) {
      const r = await api.call(method, path, { key: api.keys[role], body });
      expect([role, r.status, r.json.detail]).toEqual([role, 403, expect.stringContaining('"test-admin" role')]);
    }
    expect((await api.call('GET', 'v1/test-cases/w-1')).status).toBe(200);
  });

  it.each(['v1/test-cases', 'v1/test-cases/w-1'])('GET %s: any role may read, no key is 401', async (path) => {
    for (const role of ['reader', 'runner', 'test-admin'] as const)
      expect((await api.call('GET', path, { key: api.keys[role] })).status).toBe(200);
    expect((await api.call('GET', path, { key: null })).status).toBe(401);
    expect((await api.call('GET', path, { key: 'evalp_000000000000_wrongwrongwrongwrongwrongwrongwr' })).status).toBe(401);
  });
});
