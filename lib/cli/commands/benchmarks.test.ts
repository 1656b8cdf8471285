import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/packageRoot.js';
import { BENCHMARK_NOT_COMPLETED_EXIT, benchmarksCommand } from './benchmarks.js';
import { retailCommandForTests } from './retailCli.test-helpers.js';

const benchmarks = retailCommandForTests(benchmarksCommand);

describe('evalp benchmarks create|run|show|leaderboard', () => {
  it('runs the README example (simulated models A and B) end to end', async () => {
    const file = join(packageRoot(), 'examples', 'datasets', 'benchmark.json');
    const created = (await benchmarks('create', '--file', file)).out;
    const match = /^created benchmark (bench-[0-9a-f]+) \(3 tasks, parallelism 2\)\n$/.exec(created);
    expect(match).not.toBeNull();
    const id = match![1]!;

    const ran = await benchmarks('run', id, '--wait');
    if (process.env.EVALP_PRINT_EXAMPLE) process.stdout.write(ran.out);
    const runId = /^benchmark run (bnr-[0-9a-f]+) of /.exec(ran.out)![1]!;
    const run = JSON.parse((await benchmarks('show', id, runId, '--json')).out);
    const byId = Object.fromEntries(run.tasks.map((t: { task_id: string }) => [t.task_id, t]));
    // the seeded 40-case stratified sample of simulated model B passes 29: below the 90% gate, so full-b is skipped
    expect(byId['smoke-b']).toMatchObject({
      status: 'failed',
      scored: 40,
      passed: 29,
      reason: 'pass rate 72.5% (29 of 40 scored) below the gate 90.0%',
    });
    expect(byId['full-b']).toMatchObject({
      status: 'skipped',
      run_id: null,
      reason: `dependency "smoke-b" failed: ${byId['smoke-b'].reason}`,
    });
    expect(byId['full-a']).toMatchObject({ status: 'completed', scored: 327 });
    expect(run.status).toBe('partially_failed');
    expect(ran.code).toBe(BENCHMARK_NOT_COMPLETED_EXIT);
    expect(ran.out).toMatch(
      new RegExp(`^benchmark run ${runId} of ${id} \\(retail: smoke then full \\(simulated models\\), parallelism 2\\): ${run.status}\\n`),
    );
    expect(ran.out).toMatch(/│ full-b +│ smoke-b +│ skipped +│ - +│ - +│ dependency "smoke-b" failed: pass rate 72\.5%/);

    const board = (await benchmarks('leaderboard', id, runId)).out;
    if (process.env.EVALP_PRINT_EXAMPLE) process.stdout.write(board);
    expect(board).toMatch(
      /│ participant +│ tasks +│ scored +│ pass rate \[95% interval\] +│ p50 ms +│ p95 ms +│ cost USD +│ passes\/\$ +│ badges/,
    );
    expect(board).toMatch(
      /│ simulated-model-a +│ full-a +│ 327 +│ \d+\.\d% \[\d+\.\d%, \d+\.\d%\] +│ \d+ +│ \d+ +│ \d+\.\d{4} +│ \d+\.\d +│/,
    );
    const json = JSON.parse((await benchmarks('leaderboard', id, runId, '--json')).out);
    expect(json).toEqual(run.leaderboard);
    expect([...json.best_accuracy, ...json.best_latency, ...json.best_cost_efficiency].length).toBeGreaterThanOrEqual(3);

    const shown = (await benchmarks('show', id)).out;
    expect(shown).toMatch(new RegExp(`^benchmark ${id}: retail: smoke then full`));
    expect(shown).toMatch(/│ smoke-b +│ retail-demo +│ latest +│ simulated-model-b +│ - +│ pass rate >= 90\.0% │/);
    expect(shown).toContain(runId);
    expect((await benchmarks('list')).out).toContain(id);
  }, 240_000);

  it('a cyclic file is refused naming the cycle', async () => {
    const body = JSON.stringify({
      name: 'cyclic',
      tasks: [
        { id: 'a', suite_id: 'retail-demo', target_id: 'simulated-model-a', depends_on: ['b'] },
        { id: 'b', suite_id: 'retail-demo', target_id: 'simulated-model-a', depends_on: ['a'] },
      ],
    });
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const file = join(await mkdtemp(join(tmpdir(), 'evalp-bench-')), 'cyclic.json');
    await writeFile(file, body);
    await expect(benchmarks('create', '--file', file)).rejects.toThrow(/tasks: cycle a -> b -> a/);
  });
});
