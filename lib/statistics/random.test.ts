import { describe, expect, it } from 'vitest';
import { createRandom } from './random.js';
import { summarize } from './summary.js';

describe('createRandom (mulberry32)', () => {
  it('is reproducible for a seed and differs across seeds', () => {
    const a = createRandom(123);
    const b = createRandom(123);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(createRandom(124).next()).not.toBe(xs[0]);
    xs.forEach((x) => expect(x >= 0 && x < 1).toBe(true));
  });

  it.each([
    ['normal', (r: ReturnType<typeof createRandom>) => r.normal(), 0, 1],
    ['gamma(3)', (r: ReturnType<typeof createRandom>) => r.gamma(3), 3, 3],
    ['gamma(0.5)', (r: ReturnType<typeof createRandom>) => r.gamma(0.5), 0.5, 0.5],
    ['beta(2, 5)', (r: ReturnType<typeof createRandom>) => r.beta(2, 5), 2 / 7, 10 / (49 * 8)],
  ])('%s has the right mean and variance', (_name, draw, mean, variance) => {
    const random = createRandom(9);
    const s = summarize(Array.from({ length: 100_000 }, () => draw(random)));
    expect(Math.abs(s.mean - mean)).toBeLessThan(0.02 * Math.max(1, mean));
    expect(Math.abs(s.variance - variance) / variance).toBeLessThan(0.03);
  });

  it('int(n) covers [0, n)', () => {
    const random = createRandom(1);
    const seen = new Set(Array.from({ length: 1000 }, () => random.int(5)));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
