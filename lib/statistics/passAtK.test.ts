import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { passAtK, passHatK } from './passAtK.js';

// C(a, b) by Pascal's triangle, to check the product form against the definition
function choose(a: number, b: number): number {
  if (b < 0 || b > a) return 0;
  let row = [1];
  for (let i = 1; i <= a; i++) row = [1, ...row.slice(1).map((v, j) => v + row[j]!), 1];
  return row[b]!;
}

describe('pass@k and pass^k (unbiased estimators)', () => {
  it.each([
    // n, c, k, pass@k, pass^k (hand-computed)
    [5, 2, 2, 1 - 3 / 10, 1 / 10],
    [3, 2, 3, 1, 0],
    [3, 3, 3, 1, 1],
    [3, 0, 1, 0, 0],
    [10, 6, 4, 1 - 1 / 210, 15 / 210],
    [8, 5, 1, 5 / 8, 5 / 8],
  ])('n=%i c=%i k=%i: pass@k %d, pass^k %d', (n, c, k, atK, hatK) => {
    expect(passAtK(n, c, k)).toBeCloseTo(atK, 12);
    expect(passHatK(n, c, k)).toBeCloseTo(hatK, 12);
  });

  it('equal the binomial-coefficient definitions: 1 - C(n-c,k)/C(n,k) and C(c,k)/C(n,k)', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 25 })
          .chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }), fc.integer({ min: 1, max: n }))),
        ([n, c, k]) => {
          expect(passAtK(n, c, k)).toBeCloseTo(1 - choose(n - c, k) / choose(n, k), 10);
          expect(passHatK(n, c, k)).toBeCloseTo(choose(c, k) / choose(n, k), 10);
        },
      ),
    );
  });

  it('pass^k <= pass@1 <= pass@k for every n, c and k', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 60 })
          .chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }), fc.integer({ min: 1, max: n }))),
        ([n, c, k]) => {
          const at1 = passAtK(n, c, 1);
          expect(at1).toBeCloseTo(c / n, 12);
          expect(passHatK(n, c, k)).toBeLessThanOrEqual(at1 + 1e-12);
          expect(at1).toBeLessThanOrEqual(passAtK(n, c, k) + 1e-12);
        },
      ),
    );
  });

  it('refuses k > n, c > n and non-integers', () => {
    expect(() => passAtK(3, 1, 4)).toThrow(RangeError);
    expect(() => passHatK(3, 4, 1)).toThrow(/0 <= c <= n/);
    expect(() => passAtK(3, 1.5, 1)).toThrow(RangeError);
  });
});
