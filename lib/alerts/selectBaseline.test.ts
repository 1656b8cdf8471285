import { afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../domain/index.js';
import { EmbeddedRunStore } from '../adapters/embedded/runStore.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { sampleRun } from '../ports/contracts/fixtures.js';
import { selectBaseline } from './selectBaseline.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

const at = (hour: number) => `2026-03-01T${String(hour).padStart(2, '0')}:00:00.000Z`;

/** Runs on suite s1 / target t1 unless told otherwise, one per hour. */
const HISTORY: Run[] = [
  sampleRun('acme-old', { client_id: 'acme', status: 'completed', created_at: at(1) }),
  sampleRun('acme-last', { client_id: 'acme', status: 'completed', created_at: at(2) }),
  sampleRun('acme-failed', { client_id: 'acme', status: 'failed', created_at: at(3) }),
  sampleRun('acme-retry', { client_id: 'acme', status: 'completed', created_at: at(4), triggered_by: 'retry', parent_run_id: 'acme-last' }),
  sampleRun('acme-other-target', { client_id: 'acme', target_id: 't2', status: 'completed', created_at: at(5) }),
  sampleRun('acme-other-suite', { client_id: 'acme', suite_id: 's2', status: 'completed', created_at: at(5) }),
  sampleRun('globex-last', { client_id: 'globex', status: 'completed', created_at: at(6) }),
  sampleRun('anon-last', { client_id: null, status: 'completed', created_at: at(7) }),
  sampleRun('acme-newer', { client_id: 'acme', status: 'completed', created_at: at(12) }),
].map((r) => ({
  ...r,
  suite_id: r.suite_id === 'suite-1' ? 's1' : r.suite_id,
  target_id: r.target_id === 'target-1' ? 't1' : r.target_id,
}));

describe('selectBaseline', () => {
  it.each<[string, Partial<Run>, string | undefined]>([
    ['the explicit baseline, whatever its status', { client_id: 'acme', baseline_run_id: 'acme-failed' }, 'acme-failed'],
    ['an explicit baseline that does not exist: none', { baseline_run_id: 'gone' }, undefined],
    [
      "the client's last completed run on the suite and target, before this run (failed and retry runs skipped)",
      { client_id: 'acme' },
      'acme-last',
    ],
    ["another client's", { client_id: 'globex' }, 'globex-last'],
    ['no client: the last completed run on the suite and target, any client', { client_id: null }, 'anon-last'],
    ['a client with no earlier run: none', { client_id: 'initech' }, undefined],
    ['another target: none', { client_id: 'acme', target_id: 't3' }, undefined],
  ])('%s', async (_label, overrides, expected) => {
    const runs = new EmbeddedRunStore(temps.open().db);
    for (const run of HISTORY) await runs.createRun(run);
    const run = sampleRun('now', { suite_id: 's1', target_id: 't1', status: 'running', created_at: at(10), ...overrides });
    await runs.createRun(run);
    expect((await selectBaseline(run, { runs }))?.id).toBe(expected);
  });

  it('never picks the run itself', async () => {
    const runs = new EmbeddedRunStore(temps.open().db);
    const run = sampleRun('self', { status: 'completed', baseline_run_id: 'self' });
    await runs.createRun(run);
    expect(await selectBaseline(run, { runs })).toBeUndefined();
  });
});
