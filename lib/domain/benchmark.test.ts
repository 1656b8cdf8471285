import { describe, expect, it } from 'vitest';
import { BenchmarkCreateSchema } from './benchmark.js';
import { findCycle, topologicalOrder } from './benchmarkGraph.js';

const task = (id: string, depends_on: string[] = []) => ({ id, suite_id: 's', target_id: 't', depends_on });
const issuesOf = (tasks: unknown[]) => {
  const parsed = BenchmarkCreateSchema.safeParse({ name: 'b', tasks });
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('benchmark definition', () => {
  it('refuses a cycle, naming it as a closed path', () => {
    expect(issuesOf([task('a', ['b']), task('b', ['c']), task('c', ['a'])])).toEqual(['tasks: cycle a -> b -> c -> a']);
    // the cycle is found wherever it sits, behind acyclic parts
    expect(issuesOf([task('root'), task('x', ['root', 'y']), task('y', ['z']), task('z', ['x'])])).toEqual([
      'tasks: cycle x -> y -> z -> x',
    ]);
  });

  it('refuses unknown and self dependencies and duplicate ids, each naming its field', () => {
    expect(issuesOf([task('a'), task('a', ['ghost'])])).toEqual([
      'tasks.1.id: duplicate task id "a"',
      'tasks.1.depends_on.0: unknown task id "ghost"',
    ]);
    expect(issuesOf([task('a', ['a'])])).toEqual(['tasks.0.depends_on.0: task "a" depends on itself']);
    expect(issuesOf([{ id: 'a' }])).toEqual([
      'tasks.0.suite_id: required unless client_id is given',
      'tasks.0.target_id: required unless client_id is given',
    ]);
    expect(issuesOf([{ id: 'a', client_id: 'c' }])).toEqual([]);
    expect(issuesOf([task('has space')])[0]).toMatch(/^tasks\.0\.id: /);
  });

  it('applies defaults: parallelism 2, suite version latest, no dependencies', () => {
    const parsed = BenchmarkCreateSchema.parse({ name: 'b', tasks: [{ id: 'a', suite_id: 's', target_id: 't' }] });
    expect(parsed).toEqual({
      name: 'b',
      parallelism: 2,
      tasks: [{ id: 'a', suite_id: 's', target_id: 't', suite_version: 'latest', depends_on: [] }],
    });
  });
});

describe('benchmark graph', () => {
  it('finds no cycle in a diamond and orders it dependencies first, stable', () => {
    const diamond = [task('d', ['b', 'c']), task('b', ['a']), task('c', ['a']), task('a')];
    expect(findCycle(diamond)).toBeNull();
    expect(topologicalOrder(diamond).map((t) => t.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(() => topologicalOrder([task('a', ['b']), task('b', ['a'])])).toThrow('cycle a -> b -> a');
  });
});
