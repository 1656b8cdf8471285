import { describe, expect, it } from 'vitest';
import { RunStatsAccumulator, emptyRunStatsState, recomputeFrom } from '../../domain/stats/index.js';
import { makeOutcome } from '../../domain/stats/outcomes.test-helpers.js';
import { RunStatsCache } from './runStatsCache.js';

const stateText = (n: number) => JSON.stringify(recomputeFrom(Array.from({ length: n }, (_, i) => makeOutcome({ test_case_id: `c${i}` }))));

describe('RunStatsCache', () => {
  it.each([
    { name: 'same text: the cached accumulator', stored: stateText(1), same: true },
    { name: 'other text: parsed from the stored state', stored: stateText(2), same: false },
  ])('$name', ({ stored, same }) => {
    const cache = new RunStatsCache();
    const acc = RunStatsAccumulator.empty();
    acc.add(makeOutcome());
    cache.put('r', stateText(1), acc);
    const taken = cache.take('r', stored);
    expect(taken === acc).toBe(same);
    expect(JSON.stringify(taken.toState())).toBe(stored);
  });

  it('take removes the entry (a half-applied accumulator is never reused) and put evicts the oldest run', () => {
    const cache = new RunStatsCache(2);
    const empty = JSON.stringify(emptyRunStatsState());
    const accs = ['a', 'b', 'c'].map((run) => {
      const acc = RunStatsAccumulator.empty();
      cache.put(run, empty, acc);
      return acc;
    });
    expect(cache.take('a', empty) === accs[0]).toBe(false);
    expect(cache.take('c', empty) === accs[2]).toBe(true);
    expect(cache.take('c', empty) === accs[2]).toBe(false);
    expect(cache.take('b', empty) === accs[1]).toBe(true);
  });
});
