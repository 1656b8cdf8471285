import { describe, expect, it } from 'vitest';
import { LruJudgeCache } from './judgeCache.js';

describe('LruJudgeCache', () => {
  it('evicts the least recently used entry beyond maxEntries', async () => {
    const cache = new LruJudgeCache<number>({ maxEntries: 2 });
    await cache.set('a', 1);
    await cache.set('b', 2);
    expect(await cache.get('a')).toBe(1); // a is now the most recent
    await cache.set('c', 3); // evicts b
    expect([await cache.get('a'), await cache.get('b'), await cache.get('c'), cache.size]).toEqual([1, undefined, 3, 2]);
  });

  it('overwrites a key without growing', async () => {
    const cache = new LruJudgeCache<string>({ maxEntries: 2 });
    await cache.set('a', 'x');
    await cache.set('a', 'y');
    expect([await cache.get('a'), cache.size]).toEqual(['y', 1]);
  });

  it.each([0, -1, 1.5])('rejects maxEntries %d', (maxEntries) => {
    expect(() => new LruJudgeCache({ maxEntries })).toThrow(RangeError);
  });
});
