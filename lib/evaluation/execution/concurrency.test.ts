import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { mapWithConcurrency } from './concurrency.js';

describe('mapWithConcurrency', () => {
  it.each([1, 2, 3, 10])('keeps order and never exceeds %i in flight', async (limit) => {
    let inFlight = 0;
    let peak = 0;
    const items = [5, 1, 4, 2, 3, 0, 2];
    const results = await mapWithConcurrency(items, limit, async (ms, index) => {
      peak = Math.max(peak, ++inFlight);
      await sleep(ms);
      inFlight -= 1;
      return `${index}:${ms}`;
    });
    expect({ results, peak }).toEqual({ results: items.map((ms, i) => `${i}:${ms}`), peak: Math.min(limit, items.length) });
  });

  it('returns [] for no items and stops starting items after a rejection', async () => {
    expect(await mapWithConcurrency([], 4, async () => 1)).toEqual([]);
    const started: number[] = [];
    const run = mapWithConcurrency([0, 1, 2, 3], 1, async (n) => {
      started.push(n);
      if (n === 1) throw new Error('boom');
      return n;
    });
    await expect(run).rejects.toThrow('boom');
    expect(started).toEqual([0, 1]);
  });
});
