import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import type { Run, RunStats } from '../../domain/index.js';
import { ANALYTICS_SCHEMA_VERSION, analyticsFileName } from '../../reports/index.js';
import { applyRetention } from '../../runs/index.js';
import { startRetailPlatform, type RetailPlatform } from '../../reports/testing/retailPlatform.test-helpers.js';
import { runCliInProcess } from './cliRunner.test-helpers.js';

let retail: RetailPlatform;
let run: Run & { stats: RunStats };
let dir: string;

beforeAll(async () => {
  retail = await startRetailPlatform();
  run = await retail.runModel('simulated-model-b');
  dir = await mkdtemp(join(tmpdir(), 'evalp-export-cli-'));
}, 120_000);
afterAll(async () => {
  await retail?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const conn = (): string[] => ['--url', retail.url, '--key', retail.key];
const arrayBuffer = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('analytics export end to end (embedded)', () => {
  it('evalp export RUN --parquet FILE writes the run as Parquet: one row per scorecard, the run counts, schema_version', async () => {
    const file = join(dir, 'nested', 'run.parquet');
    const r = await runCliInProcess(['export', run.id, '--parquet', file, ...conn()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(`wrote .*run\\.parquet \\(${run.stats.completed} rows, schema_version ${ANALYTICS_SCHEMA_VERSION}`),
    );
    const buffer = arrayBuffer(await readFile(file));
    expect(Number(parquetMetadata(buffer).num_rows)).toBe(await retail.platform.services.stores.scorecards.countScorecards(run.id));
    const rows = (await parquetReadObjects({ file: buffer, columns: ['run_id', 'overall_passed', 'outcome_kind', 'target_id'] })) as Array<{
      run_id: string;
      overall_passed: boolean;
      outcome_kind: string;
      target_id: string;
    }>;
    expect(rows.filter((x) => x.overall_passed)).toHaveLength(run.stats.passed);
    expect(new Set(rows.map((x) => `${x.run_id} ${x.target_id}`))).toEqual(new Set([`${run.id} simulated-model-b`]));
  });

  it('the run-completed function wrote the same table into the export folder of the data dir', async () => {
    const dataDir = retail.platform.host.dataDir;
    const path = join(dataDir, 'exports', ...analyticsFileName(run.id).split('/'));
    const bytes = await waitFor('the exported file', async () => readFile(path));
    const rows = await parquetReadObjects({ file: arrayBuffer(bytes), columns: ['test_case_id'] });
    expect(rows).toHaveLength(run.stats.completed);
    expect(await readdir(join(dataDir, 'exports'))).toContain(analyticsFileName(run.id).split('/')[0]);
  });

  it('answers 404 problem+json for an unknown run, and the CLI exits 2 naming the status', async () => {
    const res = await fetch(`${retail.url}/api/v1/runs/no-such-run/analytics`, { headers: { authorization: `Bearer ${retail.key}` } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const r = await runCliInProcess(['export', 'no-such-run', '--parquet', join(dir, 'x.parquet'), ...conn()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/answered 404/);
    const usage = await runCliInProcess(['export', run.id, ...conn()]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--parquet/);
  });

  it('after retention the run still shows its statistics and says its cases were deleted; the export answers 409', async () => {
    const { stores } = retail.platform.services;
    const later = { now: () => new Date(Date.parse(run.completed_at!) + 31 * 86_400_000) };
    const report = await applyRetention({ stores, clock: later }, { platformDays: 30 });
    expect(report.runs_expired).toContain(run.id);
    const res = await fetch(`${retail.url}/api/v1/runs/${run.id}`, { headers: { authorization: `Bearer ${retail.key}` } });
    const view = (await res.json()) as Run & { stats: RunStats };
    expect(view.stats).toMatchObject({ completed: run.stats.completed, passed: run.stats.passed });
    expect(view.retention).toMatchObject({ retention_days: 30, cases_deleted_at: later.now().toISOString() });
    expect(view.notes.join('\n')).toMatch(/deleted by retention on .*run statistics are kept/);
    expect(await stores.scorecards.countScorecards(run.id)).toBe(0);
    const exported = await fetch(`${retail.url}/api/v1/runs/${run.id}/analytics`, { headers: { authorization: `Bearer ${retail.key}` } });
    expect(exported.status).toBe(409);
    expect(((await exported.json()) as { detail: string }).detail).toMatch(/deleted by retention/);
  });
});
