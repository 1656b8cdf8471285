import { describe, expect, it } from 'vitest';
import { pairedBootstrapMeanDiff } from './bootstrap.js';
import { pairedTTest } from './tTest.js';
import { summarize } from './summary.js';
import { createRandom } from './random.js';

function pairedSample(n: number, shift: number, seed: number): { a: Float64Array; b: Float64Array } {
  const random = createRandom(seed);
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    a[i] = random.next();
    b[i] = Math.min(1, Math.max(0, (a[i] as number) + shift + 0.2 * random.normal()));
  }
  return { a, b };
}

describe('pairedBootstrapMeanDiff', () => {
  it('is deterministic for a seed and changes with it', () => {
    const { a, b } = pairedSample(300, 0.02, 1);
    const first = pairedBootstrapMeanDiff(a, b, { seed: 42 });
    expect(pairedBootstrapMeanDiff(a, b, { seed: 42 })).toEqual(first);
    expect(pairedBootstrapMeanDiff(a, b, { seed: 43 })).not.toEqual(first);
  });

  // Independent check: for a large sample the percentile bootstrap of a mean agrees with the t interval of the
  // paired differences (both estimate the same sampling distribution; Efron and Tibshirani 1993, ch. 13).
  it.each([
    [2000, 0.03],
    [5000, -0.01],
  ])('agrees with the paired t interval (n=%i, shift=%f)', (n, shift) => {
    const { a, b } = pairedSample(n, shift, n);
    const boot = pairedBootstrapMeanDiff(a, b, { seed: 5, iterations: 4000 });
    const diffs = b.map((x, i) => x - (a[i] as number));
    const t = pairedTTest(summarize(diffs));
    expect(boot.estimate).toBeCloseTo(t.difference, 12);
    const halfWidth = (t.upper - t.lower) / 2;
    expect(Math.abs(boot.lower - t.lower)).toBeLessThan(0.1 * halfWidth);
    expect(Math.abs(boot.upper - t.upper)).toBeLessThan(0.1 * halfWidth);
  });

  it('identical samples give exactly [0, 0]', () => {
    const a = [0, 1, 0.5, 1, 0];
    expect(pairedBootstrapMeanDiff(a, a, { seed: 1 })).toEqual({ estimate: 0, lower: 0, upper: 0 });
  });

  it('caps the work for very large n (iterations * n <= maxDraws, at least 200)', () => {
    const n = 200_000;
    const { a, b } = pairedSample(n, 0.01, 3);
    const started = performance.now();
    const r = pairedBootstrapMeanDiff(a, b, { seed: 1, maxDraws: 4e7 });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(r.lower).toBeLessThan(r.estimate);
    expect(r.upper).toBeGreaterThan(r.estimate);
  });

  it('rejects unequal lengths', () => {
    expect(() => pairedBootstrapMeanDiff([1, 2], [1], { seed: 1 })).toThrow(RangeError);
  });
});
