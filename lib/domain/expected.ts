import { z } from 'zod';
import { DataFlowReferenceSchema, type DataFlowReference } from './dataFlow.js';

/**
 * What a gold case expects of one argument (or of one value inside expected raw data).
 *
 * A plain JSON value means "equal to this, under the coercion policy". An object whose keys all start with `$`
 * is a matcher:
 *  - `$value`: the expected value (itself an ExpectedValue, so matchers nest);
 *  - `$one_of`: a list of acceptable values (BFCL's per-parameter answer lists);
 *  - `$optional`: the argument may be omitted (when present it must still match `$value`/`$one_of`, if given);
 *  - `$range`: a number within [min, max], inclusive (time-sensitive values);
 *  - `$tolerance`: numeric tolerance for `$value`, relative and/or absolute;
 *  - `$unordered`: an array whose order does not matter;
 *  - `$any`: any value is accepted (a volatile field), only presence is checked;
 *  - `$from`: the value an earlier call of the trajectory returned (`{call, path, index?}`, see dataFlow.ts); stage 2
 *    resolves it against the results the calls really returned.
 */
export const MATCHER_KEYS = ['$value', '$one_of', '$optional', '$range', '$tolerance', '$unordered', '$any', '$from'] as const;
export type MatcherKey = (typeof MATCHER_KEYS)[number];

export const NumericToleranceSchema = z
  .object({
    relative: z.number().nonnegative().optional(),
    absolute: z.number().nonnegative().optional(),
  })
  .strict();
export type NumericTolerance = z.infer<typeof NumericToleranceSchema>;

export const NumericRangeSchema = z
  .object({ min: z.number().optional(), max: z.number().optional() })
  .strict()
  .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, { message: 'min must be <= max' });

export interface ArgMatcher {
  $value?: ExpectedValue;
  $one_of?: ExpectedValue[];
  $optional?: boolean;
  $range?: { min?: number; max?: number };
  $tolerance?: NumericTolerance;
  $unordered?: boolean;
  $any?: boolean;
  $from?: DataFlowReference;
}
export type ExpectedValue = string | number | boolean | null | ExpectedValue[] | ArgMatcher | { [key: string]: ExpectedValue };

export const ArgMatcherSchema: z.ZodType<ArgMatcher> = z.lazy(() =>
  z
    .object({
      $value: ExpectedValueSchema.optional(),
      $one_of: z.array(ExpectedValueSchema).min(1).optional(),
      $optional: z.boolean().optional(),
      $range: NumericRangeSchema.optional(),
      $tolerance: NumericToleranceSchema.optional(),
      $unordered: z.boolean().optional(),
      $any: z.boolean().optional(),
      $from: DataFlowReferenceSchema.optional(),
    })
    .strict(),
);

export const ExpectedValueSchema: z.ZodType<ExpectedValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(ExpectedValueSchema),
    z.record(z.string(), ExpectedValueSchema).superRefine((obj, ctx) => {
      if (isMatcherObject(obj)) {
        const parsed = ArgMatcherSchema.safeParse(obj);
        if (!parsed.success) {
          for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
        }
      }
    }),
  ]),
);

/** An object is a matcher when it is non-empty and every key starts with `$`. */
export function isMatcherObject(value: unknown): value is ArgMatcher {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/** One expected tool call of a gold case. */
export const ExpectedToolCallSchema = z
  .object({
    tool_name: z.string().min(1),
    arguments: z.record(z.string(), ExpectedValueSchema).default({}),
    /** When true, arguments the case does not mention are not counted as extra. Default false. */
    allow_extra_arguments: z.boolean().optional(),
    /**
     * Indices (in the same call list) of the calls whose results this call uses: with the case's
     * `call_order: 'dependency'`, it must be made after each of them.
     */
    depends_on: z.array(z.number().int().nonnegative()).optional(),
  })
  .strict();
export type ExpectedToolCall = z.infer<typeof ExpectedToolCallSchema>;
