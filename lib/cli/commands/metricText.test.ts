import { describe, expect, it } from 'vitest';
import { fixedText, intervalText, pctText } from './metricText.js';

describe('metricText', () => {
  it('prints measured values and n/a where nothing was measured', () => {
    expect([pctText(0.725), pctText(1), pctText(null), pctText(undefined)]).toEqual(['72.5%', '100.0%', 'n/a', 'n/a']);
    expect([fixedText(3.33624, 4), fixedText(2187.4, 0), fixedText(null, 2)]).toEqual(['3.3362', '2187', 'n/a']);
    expect(intervalText({ estimate: 0.725, lower: 0.572, upper: 0.839 }, pctText)).toBe('72.5% [57.2%, 83.9%]');
    expect(intervalText({ estimate: null, lower: 0, upper: 1 }, pctText)).toBe('n/a [0.0%, 100.0%]');
    expect(intervalText(null, pctText)).toBe('n/a');
  });
});
