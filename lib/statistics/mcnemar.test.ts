import { describe, expect, it } from 'vitest';
import { mcnemarExact } from './mcnemar.js';

describe('mcnemarExact', () => {
  // Published: Fagerland, Lydersen, Laake (2013), "The McNemar test for binary matched-pairs data: mid-p and
  // asymptotic are better than exact conditional", BMC Med Res Methodol 13:91, example of Bentur et al. (2009),
  // b = 1, c = 7: exact conditional p = 0.070, mid-p = 0.039.
  it('reproduces the Bentur et al. example of Fagerland et al. (2013)', () => {
    const r = mcnemarExact(1, 7);
    expect(r.p_value).toBeCloseTo(0.0703125, 12); // 2 * 9/256
    expect(r.mid_p_value).toBeCloseTo(0.0390625, 12); // 2 * 9/256 - 8/256
    expect(r.p_value.toFixed(3)).toBe('0.070');
    expect(r.mid_p_value.toFixed(3)).toBe('0.039');
  });

  // Independently computed: scipy.stats.binomtest(b, b + c, 0.5).pvalue
  it.each([
    [5, 0, 0.0625],
    [10, 25, 0.016673847800120715],
    [120, 180, 0.0006342200069283566],
    [3000, 3200, 0.011488253770871584],
  ])('b=%i c=%i -> p=%f (scipy binomtest)', (b, c, p) => {
    const r = mcnemarExact(b, c);
    expect(r.p_value).toBeCloseTo(p, 10);
    expect(mcnemarExact(c, b).p_value).toBeCloseTo(p, 10); // symmetric
  });

  it.each([
    [0, 0],
    [4, 4],
  ])('b=%i c=%i (no evidence) -> p = 1', (b, c) => {
    expect(mcnemarExact(b, c)).toEqual({ b, c, p_value: 1, mid_p_value: 1 });
  });

  it('stays exact for 400k discordant pairs', () => {
    const r = mcnemarExact(199_000, 201_000);
    expect(r.p_value).toBeGreaterThan(0.001);
    expect(r.p_value).toBeLessThan(0.01);
  });

  it('rejects negative counts', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
  });
});
