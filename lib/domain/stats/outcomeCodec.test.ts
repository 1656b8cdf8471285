import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CaseOutcome } from './caseOutcome.js';
import { recomputeFrom } from './fold.js';
import { decodeOutcome, encodeOutcome } from './outcomeCodec.js';
import { makeOutcome, outcomeArbitrary } from './outcomes.test-helpers.js';

const anyOutcome = fc.integer({ min: 1, max: 5 }).chain((attempt) => outcomeArbitrary('run-1', 'case-1', attempt));

describe('encodeOutcome / decodeOutcome', () => {
  it('encodes compactly and without the key', () => {
    const outcome = makeOutcome({
      failing_stage: 'logic',
      error_code: 'missing_call',
      overall_passed: false,
      overall_score: 0.5,
      tags: ['a', 'x"y'],
    });
    expect(encodeOutcome(outcome)).toBe('[1,0,0.5,"ppss","logic","missing_call",100,10,5,0.001,"orders",["a","x\\"y"],1,"model-a"]');
  });

  it('appends the efficiency as a 15th element', () => {
    const outcome = makeOutcome({
      efficiency: { calls_made: 3, calls_needed: 2, redundant_calls: 1, model_turns: 2, tokens: 540, score: 0.666667 },
    });
    const text = encodeOutcome(outcome);
    expect(text).toBe('[1,1,1,"ppss",null,null,100,10,5,0.001,"orders",["a"],1,"model-a",[3,2,1,2,540,0.666667]]');
    expect(decodeOutcome('run-1', 'case-1', text).efficiency).toEqual(outcome.efficiency);
  });

  it('round-trips every outcome', () => {
    fc.assert(
      fc.property(anyOutcome, (outcome) => {
        const text = encodeOutcome(outcome);
        // 14 elements, a 15th only for an efficiency (an outcome without one is encoded as before efficiency existed)
        expect(JSON.parse(text)).toHaveLength(outcome.efficiency ? 15 : 14);
        expect(decodeOutcome('run-1', 'case-1', text)).toEqual(outcome);
      }),
      { numRuns: 300 },
    );
  });

  it('gives equal text exactly for equal outcomes', () => {
    fc.assert(
      fc.property(anyOutcome, anyOutcome, (a, b) => {
        expect(encodeOutcome(a) === encodeOutcome(b)).toBe(
          JSON.stringify(decodeOutcome('r', 'c', encodeOutcome(a))) === JSON.stringify(decodeOutcome('r', 'c', encodeOutcome(b))),
        );
        expect(encodeOutcome({ ...a, tags: [...a.tags] })).toBe(encodeOutcome(a));
      }),
      { numRuns: 300 },
    );
  });

  it('bad numbers decode to what the fold counts for them anyway (0)', () => {
    const bad = makeOutcome({ latency_ms: Number.NaN, estimated_cost_usd: Number.POSITIVE_INFINITY, input_tokens: Number.NaN });
    const decoded: CaseOutcome = decodeOutcome('run-1', 'case-1', encodeOutcome(bad));
    expect([decoded.latency_ms, decoded.estimated_cost_usd, decoded.input_tokens]).toEqual([0, 0, 0]);
    expect(recomputeFrom([decoded])).toEqual(recomputeFrom([bad]));
  });
});
