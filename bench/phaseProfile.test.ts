import { describe, expect, it } from 'vitest';
import { formatPhaseTimes, phaseTimesOf, RUN_PHASES } from './phaseProfile.js';

const node = (id: number, url: string, children: number[] = [], functionName = 'f') => ({ id, callFrame: { functionName, url }, children });

describe('phaseTimesOf', () => {
  // root -> processImmediate (node internals) -> caseWorker.advance -> startCase -> JSON.parse (native, no url)
  //                                           -> queueEngine.receive -> sqlite transaction (node_modules)
  const profile = {
    nodes: [
      node(1, '', [2, 7, 8], '(root)'),
      node(2, 'node:internal/timers', [3, 5]),
      node(3, 'file:///x/dist/lib/runs/caseWorker.js', [4]),
      node(4, 'file:///x/dist/lib/evaluation/pipeline/steps.js', [9]),
      node(5, 'file:///x/dist/lib/host/servicebus/queueEngine.js', [6]),
      node(6, 'file:///x/node_modules/better-sqlite3/lib/methods/transaction.js'),
      node(7, '', [], '(garbage collector)'),
      node(8, '', [], '(idle)'),
      node(9, '', [], 'parse'),
    ],
    samples: [9, 9, 4, 6, 6, 6, 3, 7, 8, 2],
    timeDeltas: [1000, 1000, 1000, 2000, 2000, 2000, 1000, 3000, 500, 500],
  };

  it('charges each sample to the innermost frame with a phase, native and library frames to their caller', () => {
    const times = phaseTimesOf(profile, RUN_PHASES);
    expect(Object.fromEntries(times.byPhase)).toEqual({
      'stages 1-2 (syntax, logic, scorecard)': 3,
      'queues (send, lock, settle)': 6,
      'stage workers (batching, state)': 1,
      'garbage collection': 3,
      idle: 0.5,
      other: 0.5,
    });
    expect(times.totalMs).toBe(14);
  });

  it('prints phases in order with their share, leaving out phases with no time', () => {
    const lines = formatPhaseTimes(phaseTimesOf(profile, RUN_PHASES));
    expect(lines.map((l) => l.trim().split(/\s{2,}/)[0])).toEqual([
      'stages 1-2 (syntax, logic, scorecard)',
      'queues (send, lock, settle)',
      'stage workers (batching, state)',
      'garbage collection',
      'other',
      'idle',
    ]);
    expect(lines[1]).toMatch(/0\.0 s\s+42\.9%$/);
  });
});
