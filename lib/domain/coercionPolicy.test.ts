import { describe, expect, it } from 'vitest';
import {
  COERCION_POLICIES,
  type CoercionPolicy,
  type CoercionPolicySpec,
  DEFAULT_COERCION_POLICY,
  resolveCoercionPolicy,
} from './coercionPolicy.js';

describe('resolveCoercionPolicy', () => {
  it.each<[string, CoercionPolicySpec | undefined, CoercionPolicySpec | undefined, CoercionPolicy]>([
    ['nothing given: the default policy', undefined, undefined, DEFAULT_COERCION_POLICY],
    ['a named run policy', 'bfcl', undefined, COERCION_POLICIES.bfcl],
    ['a named case policy wins over the run', 'strict', 'bfcl', COERCION_POLICIES.bfcl],
    ['a partial run policy over the default', { numeric_string: false }, undefined, { ...DEFAULT_COERCION_POLICY, numeric_string: false }],
    [
      'a partial case policy over a named run policy',
      'strict',
      { string_normalization: 'case_whitespace' },
      { ...COERCION_POLICIES.strict, string_normalization: 'case_whitespace' },
    ],
    [
      'a partial case policy over a partial run policy',
      { iso_dates: false },
      { enum_case: false },
      { ...DEFAULT_COERCION_POLICY, iso_dates: false, enum_case: false },
    ],
    ['undefined fields in a partial are ignored', 'strict', { numeric_string: undefined }, COERCION_POLICIES.strict],
  ])('%s', (_name, run, caseLevel, policy) => {
    expect(resolveCoercionPolicy(run, caseLevel)).toEqual(policy);
  });

  it('returns the shared constants for names and when a partial changes nothing', () => {
    expect(resolveCoercionPolicy('bfcl')).toBe(COERCION_POLICIES.bfcl);
    expect(resolveCoercionPolicy('default', { numeric_string: true })).toBe(DEFAULT_COERCION_POLICY);
  });

  it('is idempotent: applying the case spec to an already resolved policy changes nothing', () => {
    const once = resolveCoercionPolicy('bfcl', { numeric_relative_tolerance: 0.01 });
    expect(resolveCoercionPolicy(once, { numeric_relative_tolerance: 0.01 })).toEqual(once);
  });

  it('throws on an unknown policy name', () => {
    expect(() => resolveCoercionPolicy('lenient' as 'default')).toThrow(/unknown coercion policy "lenient"/);
  });
});
