import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GraphTask } from '../domain/index.js';
import { nextBenchmarkStep, type FinishedTask } from './benchmarkSchedule.js';

/**
 * Drives the scheduler as the orchestrator does, with a simulated executor: `pick` chooses which running task
 * finishes next, `fails` which tasks fail. Returns the order of starts, every task's end, and the observed maximum
 * of tasks running at once.
 */
function simulate(tasks: GraphTask[], parallelism: number, fails: ReadonlySet<string>, pick: (running: string[]) => number) {
  const finished = new Map<string, FinishedTask>();
  const running: string[] = [];
  const started: string[] = [];
  let maxConcurrency = 0;
  for (let guard = 0; guard < 1000; guard++) {
    const step = nextBenchmarkStep(tasks, { running: new Set(running), finished }, parallelism);
    for (const s of step.skip) finished.set(s.task_id, { status: 'skipped', reason: s.reason });
    for (const id of step.start) {
      expect(finished.has(id) || running.includes(id)).toBe(false);
      running.push(id);
      started.push(id);
    }
    maxConcurrency = Math.max(maxConcurrency, running.length);
    if (running.length === 0) return { started, finished, maxConcurrency };
    const [done] = running.splice(pick(running), 1);
    finished.set(done!, fails.has(done!) ? { status: 'failed', reason: 'run failed' } : { status: 'completed', reason: null });
  }
  throw new Error('no end');
}

const t = (id: string, depends_on: string[] = []): GraphTask => ({ id, depends_on });

describe('nextBenchmarkStep', () => {
  it('a failing task: its dependents are skipped naming it (transitively), independent tasks still run', () => {
    const tasks = [t('smoke'), t('full', ['smoke']), t('report', ['full']), t('other'), t('after-other', ['other'])];
    const { started, finished } = simulate(tasks, 2, new Set(['smoke']), () => 0);
    expect(started).toEqual(['smoke', 'other', 'after-other']);
    expect(Object.fromEntries(finished)).toEqual({
      smoke: { status: 'failed', reason: 'run failed' },
      other: { status: 'completed', reason: null },
      'after-other': { status: 'completed', reason: null },
      full: { status: 'skipped', reason: 'dependency "smoke" failed: run failed' },
      report: { status: 'skipped', reason: 'dependency "full" was skipped' },
    });
  });

  it('starts nothing before its dependencies completed, and starts ready tasks in dependency then definition order', () => {
    const tasks = [t('c', ['a', 'b']), t('a'), t('b')];
    expect(nextBenchmarkStep(tasks, { running: new Set(), finished: new Map() }, 5)).toEqual({ skip: [], start: ['a', 'b'] });
    const afterA = new Map<string, FinishedTask>([['a', { status: 'completed', reason: null }]]);
    expect(nextBenchmarkStep(tasks, { running: new Set(['b']), finished: afterA }, 5)).toEqual({ skip: [], start: [] });
    afterA.set('b', { status: 'completed', reason: null });
    expect(nextBenchmarkStep(tasks, { running: new Set(), finished: afterA }, 5)).toEqual({ skip: [], start: ['c'] });
  });

  it('never runs more than the parallelism limit at once, and reaches it when the graph allows (any completion order)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
        fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
        (n, parallelism, depSeeds, picks) => {
          // a random DAG: task i may depend on one earlier task
          const tasks = Array.from({ length: n }, (_, i) => t(`t${i}`, i > 0 && depSeeds[i]! % 3 === 0 ? [`t${depSeeds[i]! % i}`] : []));
          let k = 0;
          const { started, finished, maxConcurrency } = simulate(
            tasks,
            parallelism,
            new Set(),
            (running) => picks[k++ % picks.length]! % running.length,
          );
          expect(maxConcurrency).toBeLessThanOrEqual(parallelism);
          const roots = tasks.filter((x) => x.depends_on.length === 0).length;
          expect(maxConcurrency).toBeGreaterThanOrEqual(Math.min(parallelism, roots));
          expect(started.length).toBe(n);
          expect([...finished.values()].every((f) => f.status === 'completed')).toBe(true);
        },
      ),
      { seed: 14, numRuns: 300 },
    );
  });
});
