import { describe, expect, it } from 'vitest';
import { pairedTTest, welchTTest } from './tTest.js';
import { summarize } from './summary.js';
import { meanInterval, totalInterval } from './meanInterval.js';

describe('welchTTest', () => {
  // Independently computed: scipy.stats.ttest_ind_from_stats(..., equal_var=False) (t and p; scipy's t is
  // x - y, ours y - x) and the Welch-Satterthwaite interval with scipy.stats.t.ppf.
  it.each([
    [
      { n: 15, mean: 20, variance: 16 },
      { n: 12, mean: 25, variance: 36 },
      2.4794235184023234,
      18.38651094141051,
      0.023049927469801185,
      0.7696601445541535,
      9.230339855445846,
    ],
    [
      { n: 1000, mean: 0.8, variance: 0.1 },
      { n: 800, mean: 0.75, variance: 0.12 },
      -3.162277660168382,
      1637.40256010503,
      0.0015941032706663528,
      -0.08101267583233969,
      -0.0189873241676604,
    ],
    [
      { n: 3, mean: 1, variance: 0.5 },
      { n: 40, mean: 2, variance: 4 },
      1.9364916731037083,
      5.027190332326285,
      0.11025501115770822,
      -0.3252861720134672,
      2.325286172013467,
    ],
  ])('%j vs %j', (x, y, t, df, p, lower, upper) => {
    const r = welchTTest(x, y);
    expect(r.t).toBeCloseTo(t, 10);
    expect(r.df).toBeCloseTo(df, 8);
    expect(r.p_value / p).toBeCloseTo(1, 6);
    expect(r.difference).toBeCloseTo(y.mean - x.mean, 12);
    expect(r.lower).toBeCloseTo(lower, 6);
    expect(r.upper).toBeCloseTo(upper, 6);
  });

  it('no spread on either side: the difference is exact', () => {
    expect(welchTTest({ n: 5, mean: 1, variance: 0 }, { n: 5, mean: 1, variance: 0 })).toEqual({
      t: null,
      df: null,
      p_value: 1,
      difference: 0,
      lower: 0,
      upper: 0,
    });
  });

  it('rejects n < 2', () => {
    expect(() => welchTTest({ n: 1, mean: 1, variance: 0 }, { n: 5, mean: 1, variance: 1 })).toThrow(RangeError);
  });
});

describe('pairedTTest, summarize, meanInterval', () => {
  // Independently computed: scipy.stats.ttest_1samp(x, 0) and its confidence_interval(0.95)
  it('matches scipy on the differences', () => {
    const d = summarize([1.2, 0.8, -0.3, 2.1, 0.4, 1.0, 0.0, 0.9]);
    expect(d.mean).toBeCloseTo(0.7625, 12);
    expect(d.variance).toBeCloseTo(0.5569642857142857, 12);
    const r = pairedTTest(d);
    expect(r.t).toBeCloseTo(2.889822496659513, 10);
    expect(r.p_value).toBeCloseTo(0.023322159608657873, 8);
    expect(r.lower).toBeCloseTo(0.13857725252201358, 8);
    expect(r.upper).toBeCloseTo(1.3864227474779862, 8);
  });

  it('meanInterval and totalInterval: scipy.stats.t.interval(0.95, 9, loc=5, scale=2/sqrt(10))', () => {
    const summary = { n: 10, mean: 5, variance: 4 };
    const m = meanInterval(summary);
    expect(m.lower).toBeCloseTo(3.569286188058671, 8);
    expect(m.upper).toBeCloseTo(6.430713811941329, 8);
    const t = totalInterval(summary);
    expect(t.estimate).toBe(50);
    expect(t.lower).toBeCloseTo(35.69286188058671, 7);
    expect(totalInterval({ n: 10, mean: 0.1, variance: 1 }, { nonNegative: true }).lower).toBe(0);
    expect(totalInterval({ n: 0, mean: Number.NaN, variance: 0 })).toEqual({ estimate: 0, lower: 0, upper: 0 });
  });
});
