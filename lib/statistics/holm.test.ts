import { describe, expect, it } from 'vitest';
import { holmAdjust } from './holm.js';

describe('holmAdjust', () => {
  // Hand-computed (Holm 1979): sorted 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, max(0.04*1, 0.06) = 0.06;
  // the same as R's p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm").
  it.each([
    [
      [0.01, 0.04, 0.03, 0.005],
      [0.03, 0.06, 0.06, 0.02],
    ],
    [
      [0.5, 0.9],
      [1, 1],
    ],
    [[0.2], [0.2]],
    [[], []],
    [
      [0.01, 0.01],
      [0.02, 0.02],
    ],
  ])('%j -> %j', (input, expected) => {
    const out = holmAdjust(input);
    expect(out).toHaveLength(expected.length);
    out.forEach((p, i) => expect(p).toBeCloseTo(expected[i] as number, 12));
  });

  it('never lowers a p-value and keeps the order of the raw ones', () => {
    const raw = [0.001, 0.2, 0.04, 0.03, 0.5, 0.0001];
    const adjusted = holmAdjust(raw);
    raw.forEach((p, i) => expect(adjusted[i]).toBeGreaterThanOrEqual(p));
    expect(adjusted[5]).toBeLessThanOrEqual(adjusted[0] as number);
  });

  it('rejects values outside [0, 1]', () => {
    expect(() => holmAdjust([0.1, 1.2])).toThrow(RangeError);
  });
});
