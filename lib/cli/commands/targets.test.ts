import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../api/routes/apiTestPlatform.test-helpers.js';
import { startScriptedServer, type ScriptedServer } from '../../targets/testing/scriptedServer.test-helpers.js';
import { runCommand } from './resourceCommands.test-helpers.js';
import { targetsCommand } from './targets.js';

let api: TestApi;
let dir: string;
let conn: string[];
let agent: ScriptedServer;

beforeAll(async () => {
  api = await startTestApi({ AGENT_TOKEN: 'Bearer t0ken' });
  dir = await mkdtemp(join(tmpdir(), 'evalp-cli-targets-'));
  conn = ['--url', api.platform.url, '--key', api.keys['platform-admin']];
  agent = await startScriptedServer((req) =>
    (req.body as { question: string }).question === 'fail'
      ? { status: 503, body: 'down for maintenance' }
      : { body: { answer: 'Order 7 shipped.', calls: [{ name: 'get_order', arguments: { order_id: '7' } }] } },
  );
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
});

const targets = (...args: string[]) => runCommand(targetsCommand, args);

describe('evalp targets', () => {
  it('create --file, list, get', async () => {
    const file = join(dir, 'agent.json');
    await writeFile(
      file,
      JSON.stringify({
        id: 'agent',
        name: 'Agent',
        settings: {
          kind: 'http',
          url: `${agent.origin}/ask`,
          headers: { Authorization: { env: 'AGENT_TOKEN' } },
          response: { answer_path: '$.answer', tool_calls_path: '$.calls' },
        },
        max_retries: 0,
      }),
    );
    expect((await targets('create', '--file', file, ...conn)).out).toBe('created target system agent\n');
    const list = await targets('list', ...conn);
    expect(list.out).toMatch(/│ agent │ Agent │ http │ - +│ custom +│/);
    expect(JSON.parse((await targets('get', 'agent', '--json', ...conn)).out).settings.headers).toEqual({
      Authorization: { env: 'AGENT_TOKEN' },
    });
  });

  it('create refuses a literal secret, naming the field', async () => {
    const file = join(dir, 'leaky.json');
    await writeFile(file, JSON.stringify({ id: 'leaky', name: 'L', settings: { kind: 'openai', model: 'm', api_key: 'sk-abc' } }));
    await expect(targets('create', '--file', file, ...conn)).rejects.toThrow(/answered 400: .*\n  body\.settings\.api_key: /);
  });

  it('test prints the verdict, the parsed calls and the answer', async () => {
    const r = await targets('test', 'agent', '--question', 'Where is order 7?', ...conn);
    expect(r.code).toBeUndefined();
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(/^target agent: ok in \d+ ms \(1 attempt\)$/);
    expect(lines.slice(1, 3)).toEqual(['question: Where is order 7?', 'format: openai_chat']);
    expect(r.out).toMatch(/│ get_order │ \{"order_id":"7"\} │/);
    expect(r.out).toContain('answer: Order 7 shipped.\n');
    expect(agent.requests.at(-1)!.headers.authorization).toBe('Bearer t0ken');
  });

  it('test of a failing target prints the error and sets exit code 1; --json gives the result', async () => {
    const r = await targets('test', 'agent', '--question', 'fail', ...conn);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^target agent: FAILED target_error \(HTTP 503\) after \d+ ms \(1 attempt\)\n/);
    expect(r.out).toContain('error: target agent: POST');
    expect(r.out).toContain('down for maintenance');
    const json = await targets('test', 'agent', '--question', 'fail', '--json', ...conn);
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, status: 'target_error', http_status: 503 });
    await expect(targets('test', 'agent', '--timeout-ms', 'soon', ...conn)).rejects.toThrow('--timeout-ms must be a whole number');
  });

  it('delete', async () => {
    expect((await targets('delete', 'agent', ...conn)).out).toBe('deleted target system agent\n');
  });
});
