import { z } from 'zod';

/** The coercions the comparator may apply; each applied one is named on the diff entry. */
export const CoercionKindSchema = z.enum([
  'numeric_string',
  'int_to_float',
  'float_to_int',
  'boolean_string',
  'enum_case',
  'iso_date',
  'string_whitespace',
  'string_case',
  'string_bfcl',
  'numeric_tolerance',
  'default_value',
  'unordered_array',
]);
export type CoercionKind = z.infer<typeof CoercionKindSchema>;

/**
 * One difference (or one coerced equality) at a path. `path` is a JSON pointer inside the call's arguments
 * (stage 2) or inside the returned data (stage 3).
 */
export const DiffEntrySchema = z.object({
  path: z.string(),
  kind: z.enum(['missing', 'extra', 'mismatch', 'type_mismatch', 'coerced']),
  expected: z.unknown().optional(),
  actual: z.unknown().optional(),
  /** coercions applied to reach equality (kind `coerced`) or tried and refused by the policy (kind `mismatch`) */
  coercions: z.array(CoercionKindSchema).optional(),
  message: z.string().optional(),
  /** stage 2, a data-flow argument (`$from`): the call it refers to, which actual call answered it (null: none did) */
  reference: z
    .object({
      call: z.string(),
      path: z.string(),
      index: z.number().int().optional(),
      /** the actual call whose result was used (null: no earlier call of that tool) */
      source_index: z.number().int().nullable(),
      /** false: the referenced call was not made before, failed, or has no such path */
      resolved: z.boolean(),
    })
    .optional(),
});
export type DiffEntry = z.infer<typeof DiffEntrySchema>;

/** Stage 2's per-call result: which expected call an actual call was assigned to, and how well it matched. */
export const CallDiffSchema = z.object({
  expected_index: z.number().int().nullable(),
  actual_index: z.number().int().nullable(),
  tool_name: z.string(),
  status: z.enum(['matched', 'partial', 'missing', 'extra']),
  /** fraction of the expected call's argument checks that passed (1 for a perfect match, 0 for missing/extra) */
  argument_score: z.number().min(0).max(1),
  entries: z.array(DiffEntrySchema),
});
export type CallDiff = z.infer<typeof CallDiffSchema>;

export const LogicDetailsSchema = z.object({
  /** which call set matched best: -1 = expected_tool_calls, i >= 0 = alternative_tool_calls[i] */
  call_set: z.number().int(),
  precision: z.number(),
  recall: z.number(),
  f1: z.number(),
  calls: z.array(CallDiffSchema),
});
export type LogicDetails = z.infer<typeof LogicDetailsSchema>;
