import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestCase } from '../../domain/index.js';
import { startTestApi, type TestApi } from './apiTestPlatform.test-helpers.js';

let api: TestApi;
let admin: string;
let seeded: TestCase[];
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/);

beforeAll(async () => {
  api = await startTestApi();
  admin = api.keys['suite-admin'];
  seeded = await api.seedCases([
    { id: 'c1', category: 'refunds', tags: ['smoke'] },
    { id: 'c2', category: 'refunds' },
    { id: 'c3', category: 'shipping', tags: ['smoke'] },
    { id: 'c4', category: 'shipping' },
    { id: 'c5', category: 'orders', tags: ['smoke'] },
  ]);
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

describe('test-suites CRUD', () => {
  it('creates a static suite: 201 with Location and ETag, server timestamps, ids kept in order without repeats', async () => {
    const r = await api.call('POST', 'v1/test-suites', {
      key: admin,
      body: { id: 'smoke', name: 'Smoke', kind: 'static', test_case_ids: ['c3', 'c1', 'c3'] },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${api.platform.url}/api/v1/test-suites/smoke`);
    expect(r.headers.get('etag')).toMatch(/^".+"$/);
    expect(r.json).toEqual({ id: 'smoke', name: 'Smoke', kind: 'static', test_case_ids: ['c3', 'c1'], created_at: ISO, updated_at: ISO });
    const got = await api.call('GET', 'v1/test-suites/smoke');
    expect([got.status, got.headers.get('etag'), got.json]).toEqual([200, r.headers.get('etag'), r.json]);
  });

  it('creates a dynamic suite with a generated id when none is given', async () => {
    const r = await api.call('POST', 'v1/test-suites', {
      key: admin,
      body: { name: 'Refunds', kind: 'dynamic', filter: { category: 'refunds' } },
    });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Refunds',
      kind: 'dynamic',
      test_case_ids: [],
      filter: { category: 'refunds' },
      created_at: ISO,
      updated_at: ISO,
    });
    expect(r.headers.get('location')).toBe(`${api.platform.url}/api/v1/test-suites/${r.json.id}`);
    await api.call('DELETE', `v1/test-suites/${r.json.id}`, { key: admin });
  });

  it.each<[string, unknown, Array<{ path: string }>]>([
    ['no name', { kind: 'static' }, [{ path: 'body.name' }]],
    ['an unknown kind', { name: 'x', kind: 'weird' }, [{ path: 'body.kind' }]],
    ['a server field', { name: 'x', kind: 'static', created_at: '2024-01-01T00:00:00Z' }, [{ path: 'body' }]],
    ['a dynamic suite without a filter', { name: 'x', kind: 'dynamic' }, [{ path: 'body.filter' }]],
    ['a static suite with a filter', { name: 'x', kind: 'static', filter: { category: 'a' } }, [{ path: 'body.filter' }]],
    [
      'a dynamic suite with ids',
      { name: 'x', kind: 'dynamic', filter: { category: 'a' }, test_case_ids: ['c1'] },
      [{ path: 'body.test_case_ids' }],
    ],
    [
      'an inverted complexity range',
      { name: 'x', kind: 'dynamic', filter: { complexity_min: 4, complexity_max: 2 } },
      [{ path: 'body.filter.complexity_min' }],
    ],
    ['an id with a control character', { id: 'a\u0007b', name: 'x', kind: 'static' }, [{ path: 'body.id' }]],
    ['an id with a lone surrogate', { id: '\ud800', name: 'x', kind: 'static' }, [{ path: 'body.id' }]],
  ])('400 for %s, naming the field', async (_why, body, errors) => {
    const r = await api.call('POST', 'v1/test-suites', { key: admin, body });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.json.errors.map((e: { path: string }) => ({ path: e.path }))).toEqual(errors);
  });

  it('422 names unknown case ids and stores nothing', async () => {
    const r = await api.call('POST', 'v1/test-suites', {
      key: admin,
      body: { id: 'bad', name: 'x', kind: 'static', test_case_ids: ['c1', 'nope', 'c2', 'gone'] },
    });
    expect(r.status).toBe(422);
    expect(r.json.errors).toEqual([
      { path: 'body.test_case_ids.1', message: 'test case "nope" does not exist' },
      { path: 'body.test_case_ids.3', message: 'test case "gone" does not exist' },
    ]);
    expect(r.json.detail).toBe('2 test case id(s) in test_case_ids do not exist: "nope", "gone"');
    expect((await api.call('GET', 'v1/test-suites/bad')).status).toBe(404);
  });

  it('409 when the id exists (the stored suite is unchanged)', async () => {
    const before = await api.call('GET', 'v1/test-suites/smoke');
    const r = await api.call('POST', 'v1/test-suites', { key: admin, body: { id: 'smoke', name: 'Other', kind: 'static' } });
    expect([r.status, r.json.detail]).toEqual([409, 'test suite "smoke" already exists; change it with PUT /api/v1/test-suites/smoke']);
    expect((await api.call('GET', 'v1/test-suites/smoke')).json).toEqual(before.json);
  });

  it('replaces with PUT: If-Match of the current ETag works, a stale one is 412, created_at is kept', async () => {
    const before = await api.call('GET', 'v1/test-suites/smoke');
    const put = await api.call('PUT', 'v1/test-suites/smoke', {
      key: admin,
      headers: { 'if-match': before.headers.get('etag')! },
      body: { name: 'Smoke v2', kind: 'static', test_case_ids: ['c1', 'c3', 'c5'] },
    });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ ...before.json, name: 'Smoke v2', test_case_ids: ['c1', 'c3', 'c5'], updated_at: ISO });
    expect(put.headers.get('etag')).not.toBe(before.headers.get('etag'));
    const stale = await api.call('PUT', 'v1/test-suites/smoke', {
      key: admin,
      headers: { 'if-match': before.headers.get('etag')! },
      body: { name: 'lost update', kind: 'static' },
    });
    expect([stale.status, stale.headers.get('etag')]).toEqual([412, put.headers.get('etag')]);
    expect((await api.call('GET', 'v1/test-suites/smoke')).json.name).toBe('Smoke v2');
  });

  it('PUT of a missing suite is 404; a body with an id is 400', async () => {
    expect((await api.call('PUT', 'v1/test-suites/none', { key: admin, body: { name: 'x', kind: 'static' } })).status).toBe(404);
    const r = await api.call('PUT', 'v1/test-suites/smoke', { key: admin, body: { id: 'smoke', name: 'x', kind: 'static' } });
    expect([r.status, r.json.errors]).toEqual([400, [{ path: 'body', message: expect.stringContaining('id') }]]);
  });

  it('lists with paging (total, has_more) and member counts instead of id lists', async () => {
    for (const id of ['p1', 'p2', 'p3'])
      await api.call('POST', 'v1/test-suites', { key: admin, body: { id, name: id, kind: 'static', test_case_ids: ['c1'] } });
    const first = await api.call('GET', 'v1/test-suites?limit=2');
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      items: [
        { id: 'p1', name: 'p1', kind: 'static', test_case_count: 1, created_at: ISO, updated_at: ISO },
        { id: 'p2', name: 'p2', kind: 'static', test_case_count: 1, created_at: ISO, updated_at: ISO },
      ],
      total: 4,
      has_more: true,
      limit: 2,
      offset: 0,
    });
    const last = await api.call('GET', 'v1/test-suites?limit=2&offset=2');
    expect([last.json.items.map((s: { id: string }) => s.id), last.json.has_more]).toEqual([['p3', 'smoke'], false]);
    const bad = await api.call('GET', 'v1/test-suites?limit=0&offset=-1');
    expect([bad.status, bad.json.errors.map((e: { path: string }) => e.path)]).toEqual([400, ['query.limit', 'query.offset']]);
    for (const id of ['p1', 'p2', 'p3']) expect((await api.call('DELETE', `v1/test-suites/${id}`, { key: admin })).status).toBe(204);
  });
});

describe('test-suites roles', () => {
  it.each<[string, string, string | null, unknown, number]>([
    ['list without a key', 'GET', null, undefined, 401],
    ['create with a reader key', 'POST', 'reader', { name: 'x', kind: 'static' }, 403],
    ['create with a test-admin key', 'POST', 'test-admin', { name: 'x', kind: 'static' }, 403],
    ['create with a platform-admin key', 'POST', 'platform-admin', { name: 'x', kind: 'static' }, 403],
  ])('%s', async (_why, method, role, body, status) => {
    const key = role === null ? null : api.keys[role as keyof TestApi['keys']];
    const r = await api.call(method, 'v1/test-suites', { key, body });
    expect(r.status).toBe(status);
  });

  it('a reader may read, not delete or change members', async () => {
    expect((await api.call('GET', 'v1/test-suites/smoke', { key: api.keys.runner })).status).toBe(200);
    expect((await api.call('DELETE', 'v1/test-suites/smoke', { key: api.keys.reader })).status).toBe(403);
    expect((await api.call('POST', 'v1/test-suites/smoke/test-cases', { key: api.keys.reader, body: { ids: ['c2'] } })).status).toBe(403);
  });
});

describe('test-suite members', () => {
  it('resolves a static suite now, paged, in its order, naming ids whose case was deleted', async () => {
    await api.seedCases([{ id: 'tmp' }]);
    await api.call('POST', 'v1/test-suites', {
      key: admin,
      body: { id: 'members', name: 'm', kind: 'static', test_case_ids: ['c5', 'tmp', 'c2', 'c4'] },
    });
    await api.platform.services.stores.testCases.deleteTestCase('tmp');
    const r = await api.call('GET', 'v1/test-suites/members/test-cases?limit=3');
    expect(r.status).toBe(200);
    expect({ ...r.json, items: r.json.items.map((c: { id: string }) => c.id) }).toEqual({
      items: ['c5', 'c2'],
      total: 4,
      has_more: true,
      limit: 3,
      offset: 0,
      missing_ids: ['tmp'],
    });
    const next = await api.call('GET', 'v1/test-suites/members/test-cases?limit=3&offset=3');
    expect(next.json.items.map((c: { id: string }) => c.id)).toEqual(['c4']);
    expect(next.json.has_more).toBe(false);
    expect(next.json.items).toEqual([seeded.find((c) => c.id === 'c4')]);
  });

  it('resolves a dynamic suite through its filter, paged', async () => {
    await api.call('POST', 'v1/test-suites', {
      key: admin,
      body: { id: 'tagged', name: 't', kind: 'dynamic', filter: { tags: ['smoke'] } },
    });
    const r = await api.call('GET', 'v1/test-suites/tagged/test-cases?limit=2');
    expect({ ...r.json, items: r.json.items.map((c: { id: string }) => c.id) }).toEqual({
      items: ['c1', 'c3'],
      total: 3,
      has_more: true,
      limit: 2,
      offset: 0,
      missing_ids: [],
    });
    expect(r.json.items).not.toContainEqual(expect.objectContaining({ _etag: expect.anything() }));
  });

  it('adds cases to a static suite (existing ones left), returns counts and the new ETag', async () => {
    const before = await api.call('GET', 'v1/test-suites/members');
    const r = await api.call('POST', 'v1/test-suites/members/test-cases', { key: admin, body: { ids: ['c1', 'c2', 'c1', 'c3'] } });
    expect([r.status, r.json]).toEqual([200, { added: 2, already_present: 1, test_case_count: 6 }]);
    const after = await api.call('GET', 'v1/test-suites/members');
    expect(after.json.test_case_ids).toEqual(['c5', 'tmp', 'c2', 'c4', 'c1', 'c3']);
    expect(after.headers.get('etag')).toBe(r.headers.get('etag'));
    expect(r.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });

  it('adding unknown ids is 422 naming them, and nothing is added', async () => {
    const r = await api.call('POST', 'v1/test-suites/members/test-cases', { key: admin, body: { ids: ['c1', 'zz'] } });
    expect([r.status, r.json.errors]).toEqual([422, [{ path: 'body.ids.1', message: 'test case "zz" does not exist' }]]);
    expect((await api.call('GET', 'v1/test-suites/members')).json.test_case_ids).toHaveLength(6);
  });

  it('adding to or removing from a dynamic suite is 409', async () => {
    const add = await api.call('POST', 'v1/test-suites/tagged/test-cases', { key: admin, body: { ids: ['c1'] } });
    expect([add.status, add.json.detail]).toEqual([409, expect.stringContaining('is dynamic')]);
    expect((await api.call('DELETE', 'v1/test-suites/tagged/test-cases/c1', { key: admin })).status).toBe(409);
  });

  it('removes cases: one by DELETE (idempotent, 204), several by POST .../remove', async () => {
    const one = await api.call('DELETE', 'v1/test-suites/members/test-cases/tmp', { key: admin });
    expect([one.status, one.headers.get('etag')]).toEqual([204, expect.stringMatching(/^".+"$/)]);
    expect((await api.call('DELETE', 'v1/test-suites/members/test-cases/tmp', { key: admin })).status).toBe(204);
    const many = await api.call('POST', 'v1/test-suites/members/test-cases/remove', { key: admin, body: { ids: ['c2', 'c3', 'never'] } });
    expect([many.status, many.json]).toEqual([200, { removed: 2, not_present: 1, test_case_count: 3 }]);
    expect((await api.call('GET', 'v1/test-suites/members')).json.test_case_ids).toEqual(['c5', 'c4', 'c1']);
  });

  it('member changes honour If-Match (412 on a stale ETag) and 404 for a missing suite', async () => {
    const stale = await api.call('POST', 'v1/test-suites/members/test-cases', {
      key: admin,
      headers: { 'if-match': '"stale"' },
      body: { ids: ['c2'] },
    });
    expect(stale.status).toBe(412);
    expect((await api.call('POST', 'v1/test-suites/none/test-cases', { key: admin, body: { ids: ['c2'] } })).status).toBe(404);
    expect((await api.call('GET', 'v1/test-suites/none/test-cases')).status).toBe(404);
    const empty = await api.call('POST', 'v1/test-suites/members/test-cases', { key: admin, body: { ids: [] } });
    expect([empty.status, empty.json.errors[0].path]).toEqual([400, 'body.ids']);
  });
});

describe('test-suite delete', () => {
  it('is 409 naming the client that uses it, then 204 and idempotent once the client is gone', async () => {
    const { stores, clock } = api.platform.services;
    const now = clock.now().toISOString();
    await stores.targets.upsert({
      id: 't',
      name: 't',
      settings: { kind: 'replay', outputs_path: 'x.jsonl' },
      client_type: 'custom',
      timeout_ms: 1000,
      max_retries: 0,
      rate_limit: { requests_per_second: 1, max_in_flight: 1 },
      created_at: now,
      updated_at: now,
    });
    await stores.clients.upsert({
      id: 'team-a',
      name: 'Team A',
      suite_ids: ['members'],
      target_id: 't',
      notify: [],
      created_at: now,
      updated_at: now,
    });
    const blocked = await api.call('DELETE', 'v1/test-suites/members', { key: admin });
    expect([blocked.status, blocked.json.detail]).toEqual([
      409,
      'test suite "members" is still used by client "team-a"; change or delete it first',
    ]);
    expect((await api.call('GET', 'v1/test-suites/members')).status).toBe(200);
    await stores.clients.delete('team-a');
    const stale = await api.call('DELETE', 'v1/test-suites/members', { key: admin, headers: { 'if-match': '"stale"' } });
    expect(stale.status).toBe(412);
    expect((await api.call('DELETE', 'v1/test-suites/members', { key: admin })).status).toBe(204);
    expect((await api.call('GET', 'v1/test-suites/members')).status).toBe(404);
    expect((await api.call('DELETE', 'v1/test-suites/members', { key: admin })).status).toBe(204);
  });
});
