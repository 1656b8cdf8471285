import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../domain/index.js';
import { startTestPlatform, type TestPlatform } from '../apiPlatform.test-helpers.js';

let t: TestPlatform;
let admin: string;
let reader: string;
let runner: string;

beforeAll(async () => {
  t = await startTestPlatform('evalp-keys-');
  admin = await t.keyWith(['platform-admin'], 'admin');
  reader = await t.keyWith(['reader'], 'reader');
  runner = await t.keyWith(['reader', 'runner'], 'runner');
});

afterAll(async () => t?.stop());

const auditOf = async (query = ''): Promise<AuditRecord[]> => (await t.api('GET', `v1/audit${query}`, { key: admin })).json.items;

describe('API keys: /api/v1/keys', () => {
  it('creates a key (201) whose secret is shown once and works at once; lists never show secrets or hashes', async () => {
    const created = await t.api('POST', 'v1/keys', {
      key: admin,
      body: { name: 'ci bot', roles: ['reader', 'runner', 'reader'] },
      headers: { 'x-request-id': 'req-create-1' },
    });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{12}$/),
      name: 'ci bot',
      roles: ['reader', 'runner'],
      status: 'active',
      created_at: expect.any(String),
      revoked_at: null,
      last_used_at: null,
      organization: 'default',
      key: expect.stringMatching(/^evalp_[0-9a-f]{12}_[A-Za-z0-9_-]{32}$/),
    });
    expect(created.headers.get('location')).toBe(`${t.platform.url}/api/v1/keys/${created.json.id}`);
    expect(created.headers.get('x-request-id')).toBe('req-create-1');
    expect((await t.api('GET', 'v1/runs', { key: created.json.key })).status).toBe(200);

    const list = await t.api('GET', 'v1/keys?limit=1000', { key: admin });
    const text = JSON.stringify(list.json);
    expect(text).not.toContain(created.json.key.split('_')[2]);
    expect(text).not.toContain('secret_hash');
    const { key: _secret, ...view } = created.json;
    expect(list.json.items).toContainEqual(view);
  });

  it.each([
    ['no roles', { name: 'x', roles: [] }, ['body.roles']],
    ['an unknown role', { name: 'x', roles: ['reader', 'god'] }, ['body.roles.1']],
    ['no name', { roles: ['reader'] }, ['body.name']],
    ['a blank name', { name: '   ', roles: ['reader'] }, ['body.name']],
    ['an unknown field', { name: 'x', roles: ['reader'], secret: 'mine' }, ['body']],
  ])('refuses a key with %s (400 naming the field) and stores nothing', async (_label, body, paths) => {
    const before = (await t.api('GET', 'v1/keys', { key: admin })).json.total;
    const r = await t.api('POST', 'v1/keys', { key: admin, body });
    expect([r.status, r.headers.get('content-type'), r.json.errors.map((e: { path: string }) => e.path)]).toEqual([
      400,
      'application/problem+json',
      paths,
    ]);
    expect((await t.api('GET', 'v1/keys', { key: admin })).json.total).toBe(before);
  });

  it('revokes a key: 200 with its revoked view, the key gets 401 at once, revoking again is idempotent, an unknown id is 404', async () => {
    const { json: made } = await t.api('POST', 'v1/keys', { key: admin, body: { name: 'short-lived', roles: ['reader'] } });
    expect((await t.api('GET', 'v1/runs', { key: made.key })).status).toBe(200);
    const revoked = await t.api('DELETE', `v1/keys/${made.id}`, { key: admin });
    expect([revoked.status, revoked.json.status, revoked.json.revoked_at]).toEqual([200, 'revoked', expect.any(String)]);
    const refused = await t.api('GET', 'v1/runs', { key: made.key });
    expect([refused.status, refused.headers.get('content-type'), refused.json.detail]).toEqual([
      401,
      'application/problem+json',
      'the API key is not valid or has been revoked',
    ]);
    expect((await t.api('DELETE', `v1/keys/${made.id}`, { key: admin })).json.revoked_at).toBe(revoked.json.revoked_at);
    expect((await t.api('DELETE', 'v1/keys/000000000000', { key: admin })).status).toBe(404);
    expect((await t.api('GET', 'v1/keys?status=revoked', { key: admin })).json.items.map((k: { id: string }) => k.id)).toContain(made.id);
    expect(
      (await t.api('GET', 'v1/keys?status=active&limit=1000', { key: admin })).json.items.map((k: { id: string }) => k.id),
    ).not.toContain(made.id);
  });

  it('pages keys oldest first with total and has_more', async () => {
    const all = (await t.api('GET', 'v1/keys?limit=1000', { key: admin })).json;
    const page = await t.api('GET', 'v1/keys?limit=2&offset=1', { key: admin });
    expect(page.json).toEqual({ items: all.items.slice(1, 3), total: all.total, has_more: all.total > 3, limit: 2, offset: 1 });
    expect(
      all.items
        .slice(0, 3)
        .map((k: { name: string }) => k.name)
        .sort(),
    ).toEqual(['admin', 'reader', 'runner']); // same millisecond: by id
    const bad = await t.api('GET', 'v1/keys?limit=0', { key: admin });
    expect([bad.status, bad.json.errors[0].path]).toEqual([400, 'query.limit']);
  });

  it.each([
    ['POST', 'v1/keys', { name: 'x', roles: ['reader'] }],
    ['GET', 'v1/keys', undefined],
    ['DELETE', 'v1/keys/000000000000', undefined],
    ['GET', 'v1/audit', undefined],
  ])('%s /api/%s: 401 without a key or with a bad one, 403 for reader and runner keys', async (method, path, body) => {
    const calls = [undefined, 'evalp_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', reader, runner];
    const answers = await Promise.all(calls.map((key) => t.api(method, path, { ...(key ? { key } : {}), ...(body ? { body } : {}) })));
    expect(answers.map((a) => [a.status, a.headers.get('content-type')])).toEqual([
      [401, 'application/problem+json'],
      [401, 'application/problem+json'],
      [403, 'application/problem+json'],
      [403, 'application/problem+json'],
    ]);
    expect(answers[0]!.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('the audit trail: /api/v1/audit', () => {
  it('records each change once (who, what, which, outcome, request id), never a GET, a failed call or a secret', async () => {
    const since = new Date().toISOString();
    const made = await t.api('POST', 'v1/keys', {
      key: admin,
      body: { name: 'audited', roles: ['reader'] },
      headers: { 'x-request-id': 'req-audit-1' },
    });
    await t.api('GET', 'v1/keys', { key: admin });
    await t.api('POST', 'v1/keys', { key: admin, body: { name: 'x', roles: [] } }); // 400
    await t.api('POST', 'v1/keys', { key: reader, body: { name: 'x', roles: ['reader'] } }); // 403
    await t.api('DELETE', 'v1/keys/000000000000', { key: admin }); // 404
    await t.api('DELETE', `v1/keys/${made.json.id}`, { key: admin });
    const adminId = (await t.api('GET', 'v1/keys', { key: admin })).json.items.find((k: { name: string }) => k.name === 'admin').id;
    const records = await auditOf(`?since=${encodeURIComponent(since)}`);
    expect(records).toEqual([
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: { id: adminId, name: 'admin', kind: 'api-key' },
        method: 'DELETE',
        route: 'keys-revoke',
        action: 'revoke',
        entity_type: 'keys',
        entity_id: made.json.id,
        status: 200,
        request_id: expect.any(String),
      },
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: { id: adminId, name: 'admin', kind: 'api-key' },
        method: 'POST',
        route: 'keys-create',
        action: 'create',
        entity_type: 'keys',
        entity_id: made.json.id,
        status: 201,
        request_id: 'req-audit-1',
      },
    ]);
    expect(JSON.stringify(records)).not.toContain(made.json.key.split('_')[2]);
  });

  it('filters by actor, entity and time window, and pages', async () => {
    const { json: other } = await t.api('POST', 'v1/keys', { key: admin, body: { name: 'second admin', roles: ['platform-admin'] } });
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const made = await Promise.all(
      [1, 2, 3].map((i) => t.api('POST', 'v1/keys', { key: other.key, body: { name: `by-second-${i}`, roles: ['reader'] } })),
    );
    const byOther = await t.api('GET', `v1/audit?actor=${other.id}&limit=2`, { key: admin });
    expect([byOther.json.total, byOther.json.has_more, byOther.json.items.length]).toEqual([3, true, 2]);
    expect((await auditOf('?actor=second%20admin')).map((r) => r.entity_id).sort()).toEqual(made.map((m) => m.json.id).sort());
    expect((await auditOf(`?entity_type=keys&entity_id=${made[0]!.json.id}`)).map((r) => r.action)).toEqual(['create']);
    expect(await auditOf(`?until=${encodeURIComponent(before)}&actor=${other.id}`)).toEqual([]);
    const page2 = await t.api('GET', `v1/audit?actor=${other.id}&limit=2&offset=2`, { key: admin });
    expect([page2.json.items.length, page2.json.has_more]).toEqual([1, false]);
    const bad = await t.api('GET', 'v1/audit?since=yesterday', { key: admin });
    expect([bad.status, bad.json.errors[0].path]).toEqual([400, 'query.since']);
  });
});
