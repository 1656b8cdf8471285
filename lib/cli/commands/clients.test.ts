import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../api/routes/apiTestPlatform.test-helpers.js';
import { resolveEvaluationConfig } from '../../domain/index.js';
import { clientsCommand } from './clients.js';
import { runCommand } from './resourceCommands.test-helpers.js';

const root = new URL('../../../', import.meta.url).pathname;
let api: TestApi;
let dir: string;
let conn: string[];

beforeAll(async () => {
  api = await startTestApi();
  dir = await mkdtemp(join(tmpdir(), 'evalp-cli-clients-'));
  conn = ['--url', api.platform.url, '--key', api.keys['platform-admin']];
  const { stores, clock } = api.platform.services;
  const now = clock.now().toISOString();
  await stores.suites.upsert({ id: 'smoke', name: 'smoke', kind: 'static', test_case_ids: [], created_at: now, updated_at: now });
  await stores.targets.upsert({
    id: 'bot',
    name: 'bot',
    settings: { kind: 'replay', outputs_path: 'o.jsonl' },
    client_type: 'custom',
    timeout_ms: 1000,
    max_retries: 0,
    rate_limit: { requests_per_second: 1, max_in_flight: 1 },
    created_at: now,
    updated_at: now,
  });
}, 60_000);

afterAll(async () => {
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
});

const clients = (...args: string[]) => runCommand(clientsCommand, args);

describe('evalp clients', () => {
  it('create --file, list, get', async () => {
    const file = join(dir, 'team.json');
    await writeFile(
      file,
      JSON.stringify({ id: 'team-a', name: 'Team A', suite_ids: ['smoke'], target_id: 'bot', schedule_cron: '0 0 2 * * *' }),
    );
    expect((await clients('create', '--file', file, ...conn)).out).toBe('created client team-a\n');
    expect((await clients('list', ...conn)).out).toMatch(/│ team-a │ Team A │ smoke +│ bot +│ 0 0 2 \* \* \* +│ 0 +│/);
    expect(JSON.parse((await clients('get', 'team-a', '--json', ...conn)).out)).toMatchObject({
      id: 'team-a',
      schedule_cron: '0 0 2 * * *',
    });
  });

  it('create with a five-field schedule fails with the hint', async () => {
    const file = join(dir, 'cron.json');
    await writeFile(file, JSON.stringify({ id: 'team-b', name: 'B', suite_ids: ['smoke'], target_id: 'bot', schedule_cron: '0 2 * * *' }));
    await expect(clients('create', '--file', file, ...conn)).rejects.toThrow(
      /body\.schedule_cron: .*prepend the seconds, e\.g\. "0 0 2 \* \* \*"/,
    );
  });

  it("runs lists the client's runs newest first", async () => {
    const { stores } = api.platform.services;
    for (const [id, minute] of [
      ['run-1', 1],
      ['run-2', 2],
    ] as const) {
      await stores.runs.createRun({
        id,
        client_id: 'team-a',
        suite_id: 'smoke',
        target_id: 'bot',
        status: 'completed',
        config: resolveEvaluationConfig({}),
        triggered_by: 'schedule',
        trigger_metadata: {},
        baseline_run_id: null,
        parent_run_id: null,
        total_cases: 12,
        shard_count: 1,
        created_at: `2026-01-01T00:0${minute}:00.000Z`,
        started_at: null,
        completed_at: null,
        deadline_at: '2026-01-02T00:00:00.000Z',
        error: null,
        notes: [],
      });
    }
    const { out } = await clients('runs', 'team-a', ...conn);
    const rows = out.split('\n').filter((l) => l.includes('run-'));
    expect(rows.map((l) => l.split('│')[1]!.trim())).toEqual(['run-2', 'run-1']);
    expect(rows[0]).toMatch(/│ run-2 │ completed │ schedule │ smoke │ bot +│ 12 +│ 2026-01-01T00:02:00.000Z │/);
    expect(JSON.parse((await clients('runs', 'team-a', '--status', 'failed', '--json', ...conn)).out)).toMatchObject({
      total: 0,
      items: [],
    });
  });

  it('through main.ts: an API error is printed on stderr with exit code 2', async () => {
    const env = { ...process.env, EVALP_URL: api.platform.url, EVALP_API_KEY: api.keys['platform-admin'] };
    const failed = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(root, 'lib/cli/main.ts'), 'clients', 'get', 'nobody'],
      { cwd: root, env },
    ).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 2, stderr: 'evalp: GET v1/clients/nobody answered 404: client "nobody" does not exist\n' });
  }, 30_000);

  it('delete', async () => {
    expect((await clients('delete', 'team-a', ...conn)).out).toBe('deleted client team-a\n');
    await expect(clients('get', 'team-a', ...conn)).rejects.toThrow(/404/);
  });
});
