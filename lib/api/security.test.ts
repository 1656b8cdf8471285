/**
 * The security findings of issue 16, each against a real embedded platform over HTTP: SSRF through targets,
 * webhooks and /api/evaluate (refused with the reason, before anything is stored), literal secrets in every field
 * (400 naming it), bad ids (400, nothing written), JSON media types (415), failed-authentication rate limit (429).
 */
import { createServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './routes/apiTestPlatform.test-helpers.js';

let api: TestApi;
let agent: Server;
let agentUrl: string;
const agentCalls: string[] = [];

beforeAll(async () => {
  agent = createServer((req, res) => {
    agentCalls.push(req.url ?? '');
    if (req.url?.startsWith('/redirect-to-metadata'))
      return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/' }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answer: 'ok', response: 'ok' }));
  });
  await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve));
  agentUrl = `http://127.0.0.1:${(agent.address() as AddressInfo).port}`;
  // the embedded default outbound policy: loopback allowed, never the platform itself (outboundStrict.test.ts: EVALP_OUTBOUND_ALLOW=none)
  api = await startTestApi({ EVALP_AUTH_FAILURES_PER_MINUTE: '6', EVALP_AUTH_FAILURES_BURST: '3' });
}, 120_000);

afterAll(async () => {
  await api?.stop();
  await new Promise<void>((resolve) => agent.close(() => resolve()));
});

const httpTarget = (id: string, settings: Record<string, unknown>) => ({ id, name: id, settings: { kind: 'http', ...settings } });
const question = [{ question: 'What is the status of order 1?', expected_outcome: { response: 'shipped' } }];
const errorPaths = (json: { errors?: Array<{ path: string }> }) => (json.errors ?? []).map((e) => e.path);

describe('SSRF: outbound URLs are refused with the reason before anything is stored', () => {
  it('/api/evaluate with target_url = the platform itself (its API and its durable webhooks) is 400 naming body.target_url', async () => {
    for (const path of ['/runtime/webhooks/durabletask/instances', '/api/v1/runs']) {
      const r = await api.call('POST', 'evaluate', {
        key: api.keys.runner,
        body: { target_url: `${api.platform.url}${path}`, questions: question },
      });
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.json.errors).toEqual([{ path: 'body.target_url', message: expect.stringMatching(/platform's own address and port/) }]);
    }
    // the same through a DNS name that resolves to this machine (os.hostname() via the system resolver)
    const port = new URL(api.platform.url).port;
    const named = await api.call('POST', 'evaluate', {
      key: api.keys.runner,
      body: { target_url: `http://${hostname()}:${port}/api/v1/runs`, questions: question },
    });
    expect(named.status).toBe(400);
    expect(named.json.errors[0].message).toMatch(new RegExp(`${hostname()} \\(.+\\):${port} is the platform's own address and port`));
    expect((await api.call('GET', 'v1/target-systems', { key: api.keys.reader })).json.items).toEqual([]);
  });

  it.each([
    ['cloud metadata (IPv4)', 'http://169.254.169.254/latest/meta-data/', /cloud metadata address/],
    ['cloud metadata (IPv6)', 'http://[fd00:ec2::254]/latest/', /cloud metadata address/],
    ['cloud metadata (name)', 'http://metadata.google.internal/computeMetadata/v1/', /cloud metadata host/],
    ['cloud metadata (decimal form)', 'http://2852039166/', /cloud metadata address/],
    ['a private range', 'http://10.0.0.8/agent', /private-network address/],
    ['link-local', 'http://169.254.7.7/agent', /link-local address/],
  ])('a target system at %s is 400 naming body.settings.url', async (_why, url, reason) => {
    const r = await api.call('POST', 'v1/target-systems', { key: api.keys['platform-admin'], body: httpTarget('ssrf', { url }) });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([{ path: 'body.settings.url', message: expect.stringMatching(reason) }]);
  });

  it('an openai base_url and a client webhook at metadata are refused naming the field', async () => {
    const openai = await api.call('POST', 'v1/target-systems', {
      key: api.keys['platform-admin'],
      body: { id: 'o', name: 'o', settings: { kind: 'openai', model: 'm', base_url: 'http://169.254.169.254/v1' } },
    });
    expect([openai.status, errorPaths(openai.json)]).toEqual([400, ['body.settings.base_url']]);
    const suite = await api.call('POST', 'v1/test-suites', { key: api.keys['suite-admin'], body: { id: 's', name: 's', kind: 'static' } });
    expect(suite.status).toBe(201);
    const target = await api.call('POST', 'v1/target-systems', {
      key: api.keys['platform-admin'],
      body: httpTarget('local-agent', { url: `${agentUrl}/ask` }),
    });
    expect(target.status).toBe(201);
    const client = await api.call('POST', 'v1/clients', {
      key: api.keys['platform-admin'],
      body: {
        id: 'c',
        name: 'c',
        suite_ids: ['s'],
        target_id: 'local-agent',
        notify: [{ kind: 'webhook', url: 'http://[::ffff:169.254.169.254]/hook' }],
      },
    });
    expect([client.status, errorPaths(client.json)]).toEqual([400, ['body.notify.0.url']]);
  });

  it("a run's stage-3 execution.base_url at metadata is 400 naming body.config.execution.base_url, and no run is created", async () => {
    const r = await api.call('POST', 'v1/runs', {
      key: api.keys.runner,
      body: {
        suite_id: 'nope',
        target_id: 'nope',
        config: { execution: { enabled: true, provider: 'http', base_url: 'http://169.254.169.254/latest/' } },
      },
    });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([{ path: 'body.config.execution.base_url', message: expect.stringMatching(/cloud metadata address/) }]);
  });

  it('loopback agents are fine on the embedded default', async () => {
    const ok = await api.call('POST', 'evaluate', { key: api.keys.runner, body: { target_url: `${agentUrl}/ask`, questions: question } });
    expect(ok.status).toBe(202);
  });

  it('a redirect to metadata is refused at call time: the probe reports the reason and metadata is never contacted', async () => {
    const target = await api.call('POST', 'v1/target-systems', {
      key: api.keys['platform-admin'],
      body: httpTarget('redirector', { url: `${agentUrl}/redirect-to-metadata` }),
    });
    expect(target.status).toBe(201);
    const probe = await api.call('POST', 'v1/target-systems/redirector/test', {
      key: api.keys['platform-admin'],
      body: { question: 'hello' },
    });
    expect(JSON.stringify(probe.json)).toMatch(/169\.254\.169\.254 is a cloud metadata address, which is never allowed/);
    expect(agentCalls.some((u) => u.startsWith('/redirect-to-metadata'))).toBe(true);
  });
});

describe('literal secrets are refused in every field that can carry one (400 naming it, nothing stored)', () => {
  it.each([
    ['the URL query', { url: 'https://agent.example.com/ask?api_key=abc123' }, 'body.settings.url'],
    ['the URL fragment', { url: 'https://agent.example.com/ask#access_token=abc123' }, 'body.settings.url'],
    [
      'a credential header',
      { url: 'https://agent.example.com/ask', headers: { Authorization: 'Bearer abcdefghijkl' } },
      'body.settings.headers.Authorization',
    ],
    [
      'a key-shaped value in another header',
      { url: 'https://agent.example.com/ask', headers: { 'X-Trace': 'sk-proj-abcdefghijklmnopqrstuv' } },
      'body.settings.headers.X-Trace',
    ],
    [
      'the request template',
      { url: 'https://agent.example.com/ask', request_template: '{"question": {{question}}, "api_key": "abc123"}' },
      'body.settings.request_template',
    ],
  ])('a target with a secret in %s', async (_why, settings, path) => {
    const r = await api.call('POST', 'v1/target-systems', { key: api.keys['platform-admin'], body: httpTarget('leaky', settings) });
    expect(r.status).toBe(400);
    expect(errorPaths(r.json)).toContain(path);
    expect(JSON.stringify(r.json)).not.toContain('abc123');
    expect((await api.call('GET', 'v1/target-systems/leaky', { key: api.keys.reader })).status).toBe(404);
  });

  it.each([
    ['target_url query', { target_url: `https://agent.example.com/ask?code=abc123`, questions: question }, 'body.target_url'],
    ['target_url fragment', { target_url: `https://agent.example.com/ask#token=abc123`, questions: question }, 'body.target_url'],
    [
      'request_template',
      {
        target_url: 'https://agent.example.com/ask',
        questions: question,
        request_template: '{"question": {{question}}, "password": "abc123"}',
      },
      'body.request_template',
    ],
    [
      'a question',
      {
        target_url: 'https://agent.example.com/ask',
        questions: [{ question: 'use key sk-abcdefghijklmnopqrstuvwx', expected_outcome: { response: 'x' } }],
      },
      'body.questions.0.question',
    ],
  ])('/api/evaluate with a secret in %s', async (_why, body, path) => {
    const r = await api.call('POST', 'evaluate', { key: api.keys.runner, body });
    expect(r.status).toBe(400);
    expect(errorPaths(r.json)).toContain(path);
  });
});

describe('ids: one rule, checked before any write', () => {
  const tc = (id: string) => ({ id, nl_query: 'q', expected_tool_calls: [] });
  it.each([
    ['a lone surrogate', '\ud800'],
    ['a control character', 'a\u0000b'],
    ['129 characters', 'x'.repeat(129)],
    ['100,000 characters', 'x'.repeat(100_000)],
  ])('a test case id with %s is 400 naming body.id and nothing is written', async (_why, id) => {
    const before = (await api.call('GET', 'v1/test-cases?limit=1', { key: api.keys.reader })).json.total;
    const r = await api.call('POST', 'v1/test-cases', { key: api.keys['test-admin'], body: tc(id) });
    expect(r.status).toBe(400);
    expect(errorPaths(r.json)).toContain('body.id');
    expect((await api.call('GET', 'v1/test-cases?limit=1', { key: api.keys.reader })).json.total).toBe(before);
  });

  it('an import row with a bad id is refused whole (422 naming the row), nothing written; 128 emoji are fine', async () => {
    const rows = [tc('fine-1'), tc('\ud800')].map((r) => JSON.stringify(r)).join('\n');
    const r = await api.call('POST', 'v1/test-cases/import', {
      key: api.keys['test-admin'],
      body: rows,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.json.errors)).toMatch(/lone surrogate/);
    expect((await api.call('GET', 'v1/test-cases/fine-1', { key: api.keys.reader })).status).toBe(404);
    const emoji = '🙂'.repeat(128);
    const created = await api.call('POST', 'v1/test-cases', { key: api.keys['test-admin'], body: tc(emoji) });
    expect(created.status).toBe(201);
    expect((await api.call('GET', `v1/test-cases/${encodeURIComponent(emoji)}`, { key: api.keys.reader })).status).toBe(200);
    expect((await api.call('DELETE', `v1/test-cases/${encodeURIComponent(emoji)}`, { key: api.keys['test-admin'] })).status).toBe(204);
  });

  it('entity ids follow the same rule', async () => {
    const r = await api.call('POST', 'v1/test-suites', {
      key: api.keys['suite-admin'],
      body: { id: 'a\u0007', name: 'x', kind: 'static' },
    });
    expect([r.status, errorPaths(r.json)]).toEqual([400, ['body.id']]);
  });
});

describe('the HTTP layer', () => {
  it.each(['application/jsonx', 'application/json-patch+json', 'application/merge-patch+json', 'text/plain', 'text/json'])(
    'a JSON body sent as %s is 415 problem+json',
    async (type) => {
      const r = await api.call('POST', 'v1/test-suites', {
        key: api.keys['suite-admin'],
        body: { name: 'x', kind: 'static' },
        headers: { 'content-type': type },
      });
      expect(r.status).toBe(415);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
    },
  );

  it.each(['application/json; charset=utf-8', 'application/vnd.evalp+json'])('a JSON body sent as %s is read', async (type) => {
    const r = await api.call('POST', 'v1/test-suites', {
      key: api.keys['suite-admin'],
      body: { name: `suite ${type}`, kind: 'static' },
      headers: { 'content-type': type },
    });
    expect(r.status).toBe(201);
  });

  it('a URL over the limit is 431 problem+json', async () => {
    const res = await fetch(`${api.platform.url}/api/v1/test-cases/${'x'.repeat(20_000)}`, {
      headers: { authorization: `Bearer ${api.keys.reader}` },
    });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 431, title: 'Request Header Fields Too Large' });
  });

  it('failed authentication attempts are rate-limited per source: 429 with Retry-After, even for a valid key, until the bucket refills', async () => {
    for (let i = 0; i < 3; i++) expect((await api.call('GET', 'v1/runs', { key: `evalp_wrong_${i}` })).status).toBe(401);
    const limited = await api.call('GET', 'v1/runs', { key: 'evalp_wrong_again' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.json.detail).toMatch(/too many failed authentication attempts from 127\.0\.0\.1/);
    expect((await api.call('GET', 'v1/runs', { key: api.keys.reader })).status).toBe(429);
    // a spoofed x-forwarded-for does not pick another bucket (the host appends the real peer address)
    expect((await api.call('GET', 'v1/runs', { key: api.keys.reader, headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(429);
    // 6 per minute: one failure's worth is back after 10 s
    await new Promise((r) => setTimeout(r, 10_500));
    expect((await api.call('GET', 'v1/runs', { key: api.keys.reader })).status).toBe(200);
  }, 30_000);
});
