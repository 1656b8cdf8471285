import { z } from 'zod';

/**
 * How stage 2 decides that an actual argument equals an expected one. Every coercion that is allowed and used
 * is named in the diff (`coercion` on the diff entry), so a verdict is always explainable.
 */
export const StringNormalizationSchema = z.enum([
  /** exact string equality */
  'none',
  /** trim and collapse runs of whitespace */
  'whitespace',
  /** whitespace plus case-insensitive */
  'case_whitespace',
  /** BFCL's checker: lower-case and remove spaces and the characters `,./-_*^` */
  'bfcl',
]);
export type StringNormalization = z.infer<typeof StringNormalizationSchema>;

export const CoercionPolicySchema = z
  .object({
    /** `"5"` equals `5` (a numeric string for a number, or a number for a string). */
    numeric_string: z.boolean().default(true),
    /** An integer where a float is expected is accepted (Python's int→float). */
    int_to_float: z.boolean().default(true),
    /** A float with an integral value (`5.0`) where an integer is expected is accepted. */
    float_to_int: z.boolean().default(true),
    /** `"true"`/`"false"` equal booleans. */
    boolean_string: z.boolean().default(true),
    /** Enum values compare case-insensitively. */
    enum_case: z.boolean().default(true),
    /** ISO-8601 dates and date-times compare by instant (`2024-01-05` = `2024-01-05T00:00:00Z`). */
    iso_dates: z.boolean().default(true),
    /** String normalisation for free-text arguments. */
    string_normalization: StringNormalizationSchema.default('whitespace'),
    /** Numeric tolerance for arguments with no `$tolerance`: relative (fraction) and absolute. */
    numeric_relative_tolerance: z.number().nonnegative().default(0),
    numeric_absolute_tolerance: z.number().nonnegative().default(0),
    /** Arrays compare in order unless the schema or the case marks them unordered. */
    arrays_ordered_by_default: z.boolean().default(true),
  })
  .strict();
export type CoercionPolicy = z.infer<typeof CoercionPolicySchema>;

/** The default policy: lenient where the value is unambiguously the same, strict on content. */
export const DEFAULT_COERCION_POLICY: CoercionPolicy = CoercionPolicySchema.parse({});

/** BFCL's own checker semantics (see lib/goldset/importers/README.md for every difference). */
export const BFCL_COERCION_POLICY: CoercionPolicy = CoercionPolicySchema.parse({
  numeric_string: false,
  int_to_float: true,
  float_to_int: false,
  boolean_string: false,
  enum_case: false,
  iso_dates: false,
  string_normalization: 'bfcl',
});

/** Named policies a case or a run can refer to. */
export const COERCION_POLICIES = {
  default: DEFAULT_COERCION_POLICY,
  bfcl: BFCL_COERCION_POLICY,
  strict: CoercionPolicySchema.parse({
    numeric_string: false,
    int_to_float: false,
    float_to_int: false,
    boolean_string: false,
    enum_case: false,
    iso_dates: false,
    string_normalization: 'none',
  }),
} as const satisfies Record<string, CoercionPolicy>;
export type CoercionPolicyName = keyof typeof COERCION_POLICIES;
export const COERCION_POLICY_NAMES = ['default', 'bfcl', 'strict'] as const satisfies readonly CoercionPolicyName[];

/** A policy as a run or a case states it: a named policy, or some of its fields (the rest inherited). */
export const CoercionPolicySpecSchema = z.union([z.enum(COERCION_POLICY_NAMES), CoercionPolicySchema.partial()]);
export type CoercionPolicySpec = z.infer<typeof CoercionPolicySpecSchema>;

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
      throw new Error(
        `unknown coercion policy "${String(spec)}": use one of ${Object.keys(COERCION_POLICIES).join(', ')} or a partial policy object`,
      );
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
