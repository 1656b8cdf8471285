import { COERCION_POLICIES, DEFAULT_COERCION_POLICY, type CoercionPolicy, type CoercionPolicyName } from '../../domain/coercionPolicy.js';

/** A policy as a run or a case states it: a named policy, or some of its fields (the rest inherited). */
export type CoercionPolicySpec = CoercionPolicyName | Partial<CoercionPolicy>;

/**
 * The policy in force for one case. The run's spec applies over the default policy; the case's spec wins:
 * a name replaces the run's policy entirely, a partial policy overrides only the fields it sets.
 * Idempotent: applying the same case spec twice gives the same policy. Named policies are returned as the shared
 * constants (no allocation). Throws on an unknown policy name (broken configuration).
 */
export function resolveCoercionPolicy(runLevel?: CoercionPolicySpec, caseLevel?: CoercionPolicySpec): CoercionPolicy {
  const run = applySpec(DEFAULT_COERCION_POLICY, runLevel);
  return applySpec(run, caseLevel);
}

function applySpec(base: CoercionPolicy, spec: CoercionPolicySpec | undefined): CoercionPolicy {
  if (spec === undefined) return base;
  if (typeof spec === 'string') {
    if (!Object.hasOwn(COERCION_POLICIES, spec)) {
      throw new Error(`unknown coercion policy "${String(spec)}": use one of ${Object.keys(COERCION_POLICIES).join(', ')} or a partial policy object`);
    }
    return COERCION_POLICIES[spec];
  }
  let merged: CoercionPolicy | undefined;
  for (const key of Object.keys(spec) as Array<keyof CoercionPolicy>) {
    const value = spec[key];
    if (value === undefined || value === base[key]) continue;
    merged ??= { ...base };
    (merged as Record<keyof CoercionPolicy, unknown>)[key] = value;
  }
  return merged ?? base;
}
