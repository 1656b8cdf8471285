import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertId, type Run, type RunStats } from '../../domain/index.js';
import { sampleAlert } from '../../ports/contracts/alertStore.contract.js';
import { startRetailPlatform, type RetailPlatform } from '../../reports/testing/retailPlatform.test-helpers.js';
import { runCliInProcess } from './cliRunner.test-helpers.js';

let retail: RetailPlatform;
let run: Run & { stats: RunStats };

beforeAll(async () => {
  retail = await startRetailPlatform();
  run = await retail.runModel('simulated-model-a');
  await retail.platform.services.stores.alerts.createAlert(
    sampleAlert(run.id, 'accuracy', { severity: 'critical', message: 'accuracy fell 4.6 points' }),
  );
}, 120_000);
afterAll(async () => retail?.stop());

const conn = (): string[] => ['--url', retail.url, '--key', retail.key];

describe('evalp read commands against a real embedded platform', () => {
  it('runs list: each run with its status, pass rate, p95 and cost per case', async () => {
    const r = await runCliInProcess(['runs', 'list', ...conn()]);
    expect(r.code).toBe(0);
    const row = r.stdout.split('\n').find((l) => l.includes(run.id))!;
    expect(row).toContain('completed');
    expect(row).toContain(`${run.stats.completed}/${run.total_cases}`);
    expect(row).toContain(`${(run.stats.pass_rate! * 100).toFixed(1)}%`);
    expect(row).toContain(`${Math.round(run.stats.latency_ms.p95!)} ms`);
    expect(r.stdout).toContain('1-1 of 1');
    const json = JSON.parse((await runCliInProcess(['runs', 'list', '--status', 'completed', '--json', ...conn()])).stdout);
    expect(json.items[0].headline).toMatchObject({ completed: run.stats.completed, passed: run.stats.passed });
  });

  it('failures RUN: the failed cases with stage, error code and message, filterable', async () => {
    const r = await runCliInProcess(['failures', run.id, '--stage', 'logic', '--limit', '5', ...conn()]);
    expect(r.code).toBe(0);
    const api = (await (
      await fetch(`${retail.url}/api/v1/runs/${run.id}/failures?failing_stage=logic&limit=5`, {
        headers: { authorization: `Bearer ${retail.key}` },
      })
    ).json()) as { total: number; items: Array<{ test_case_id: string; error_code: string }> };
    for (const f of api.items) expect(r.stdout).toMatch(new RegExp(`${f.test_case_id}\\s+│ logic\\s+│ ${f.error_code}`));
    expect(r.stdout).toContain(`1-5 of ${api.total}`);
  });

  it('alerts: newest first, filtered by run', async () => {
    const r = await runCliInProcess(['alerts', '--run', run.id, ...conn()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(run.id);
    expect(alertId(run.id, 'accuracy')).toBe(`${run.id}:accuracy`);
    expect(r.stdout).toMatch(/critical\s+│ accuracy/);
    expect(r.stdout).toContain('accuracy fell 4.6 points');
  });

  it('cases show ID: one case as a table, or JSON', async () => {
    const json = JSON.parse((await runCliInProcess(['cases', 'show', 'retail-0001', '--json', ...conn()])).stdout);
    expect(json.id).toBe('retail-0001');
    const table = await runCliInProcess(['cases', 'show', 'retail-0001', ...conn()]);
    expect(table.stdout).toMatch(/nl_query\s+│ /);
  });

  it.each<[string, string[], RegExp]>([
    ['an unknown option', ['runs', 'list', '--colour'], /^evalp: unknown option '--colour'\n$/],
    ['a missing argument', ['failures'], /^evalp: missing required argument 'runId'\n$/],
    [
      'a bad choice',
      ['alerts', '--severity', 'huge'],
      /^evalp: option '--severity <level>' argument 'huge' is invalid\. Allowed choices are low, medium, high, critical\.\n$/,
    ],
    ['a bad page size', ['runs', 'list', '--limit', 'ten'], /^evalp: --limit must be a whole number \(got "ten"\)\n$/],
    ['an unknown run', ['failures', 'no-such-run'], /404.*no-such-run/],
    ['an unknown case', ['cases', 'show', 'no-such-case'], /404.*no-such-case/],
    ['a group without its command', ['runs'], /^evalp: name a command \(listed above\)\n$/],
  ])('%s: exit 2 with a message, no stack trace', async (_label, args, message) => {
    const r = await runCliInProcess([...args, ...(args.length > 1 || args[0] !== 'runs' ? conn() : [])]);
    expect(r.code).toBe(2);
    expect(
      r.stderr
        .split('\n')
        .filter((l) => l.startsWith('evalp:'))
        .join('\n') + '\n',
    ).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('evalp submit --config', () => {
  it("sends the file's config (--profile overriding its profile) and names the file and field of a bad one", async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'evalp-submit-'));
    const good = join(dir, 'run.json');
    await writeFile(
      good,
      JSON.stringify({ profile: 'nightly', coercion: 'strict', semantics: { enabled: false }, execution: { provider: 'expected' } }),
    );
    const r = await runCliInProcess([
      'submit',
      '--suite',
      'retail-demo',
      '--target',
      'simulated-model-a',
      '--config',
      good,
      '--profile',
      'release',
      '--priority',
      'low',
      ...conn(),
    ]);
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    const stored = await retail.platform.services.stores.runs.getRun(id);
    expect([
      stored?.config.profile,
      stored?.config.coercion,
      stored?.config.semantics.enabled,
      stored?.config.execution.enabled,
      stored?.config.priority,
    ]).toEqual(['release', 'strict', false, true, 'low']);
    const status = await runCliInProcess(['status', id, ...conn()]);
    expect(status.stdout).toMatch(/│ priority +│ low +│/);
    const unknown = await runCliInProcess(['submit', '--suite', 'retail-demo', '--priority', 'urgent', ...conn()]);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining("'urgent' is invalid") as unknown as string]);
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ coercion: 'loose' }));
    const refused = await runCliInProcess([
      'submit',
      '--suite',
      'retail-demo',
      '--target',
      'simulated-model-a',
      '--config',
      bad,
      ...conn(),
    ]);
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toMatch(new RegExp(`^evalp: --config ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: coercion: `));
    const missing = await runCliInProcess(['submit', '--suite', 'retail-demo', '--config', join(dir, 'nope.json'), ...conn()]);
    expect([missing.code, missing.stderr]).toEqual([2, `evalp: --config ${join(dir, 'nope.json')}: cannot read it (ENOENT)\n`]);
  });
});
