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

/** BFCL's own checker semantics (see lib/evaluation/importers/README.md for every difference). */
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
