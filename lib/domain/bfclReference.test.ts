import { describe, expect, it } from 'vitest';
import { EvaluationConfigOverridesSchema, resolveEvaluationConfig } from './evaluationConfig.js';
import { BfclReferenceSchema, CompatVerdictSchema } from './bfclReference.js';

describe('compat "bfcl" in a run config and the BFCL reference of a case', () => {
  it('a run config takes compat "bfcl" and names the field when the value is unknown', () => {
    expect(resolveEvaluationConfig({ compat: 'bfcl' }).compat).toBe('bfcl');
    expect(resolveEvaluationConfig({}).compat).toBeUndefined();
    const bad = EvaluationConfigOverridesSchema.safeParse({ compat: 'inspect' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['compat']);
  });

  it('a reference needs its category, docs and answer; unknown keys are refused', () => {
    expect(BfclReferenceSchema.safeParse({ category: 'simple', function: [], ground_truth: [] }).success).toBe(true);
    expect(BfclReferenceSchema.safeParse({ category: '', function: [], ground_truth: [] }).success).toBe(false);
    expect(BfclReferenceSchema.safeParse({ category: 'simple', function: [], ground_truth: [], extra: 1 }).success).toBe(false);
    expect(CompatVerdictSchema.safeParse({ mode: 'bfcl', passed: true, rule: 'valid', message: '', default_passed: false }).success).toBe(
      true,
    );
  });
});
