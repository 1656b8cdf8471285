import { z } from 'zod';
import { ExpectedValueSchema } from './expected.js';

/**
 * How a case breaks against a new tool-catalog version:
 * - `tool_removed`: a call names a tool the new version does not have;
 * - `tool_renamed`: as removed, but the new version has one new tool with the same parameters (the suggestion);
 * - `parameter_renamed`: an argument the new schema no longer declares, where it declares one new parameter of the
 *   same type instead;
 * - `parameter_removed`: an argument the new schema no longer declares (no likely new name);
 * - `required_parameter_added`: the new schema requires a parameter the call does not give;
 * - `type_changed`: the parameter's type changed and the case's value does not fit the new one;
 * - `schema_violation`: any other way the case's call breaks the new schema (enum, format, nested field).
 */
export const CATALOG_BREAK_KINDS = [
  'tool_removed',
  'tool_renamed',
  'parameter_renamed',
  'parameter_removed',
  'required_parameter_added',
  'type_changed',
  'schema_violation',
] as const;
export const CatalogBreakKindSchema = z.enum(CATALOG_BREAK_KINDS);
export type CatalogBreakKind = z.infer<typeof CatalogBreakKindSchema>;

/** One migration step over every expected call of the migrated cases. */
export const CatalogMigrationOperationSchema = z.discriminatedUnion('op', [
  z
    .object({
      op: z.literal('rename_argument'),
      tool: z.string().min(1),
      from: z.string().min(1),
      to: z.string().min(1),
    })
    .strict(),
  z
    .object({
      /** give a new required parameter a value in every call of `tool` that lacks it */
      op: z.literal('add_default'),
      tool: z.string().min(1),
      argument: z.string().min(1),
      value: ExpectedValueSchema,
    })
    .strict(),
  z.object({ op: z.literal('rename_tool'), from: z.string().min(1), to: z.string().min(1) }).strict(),
]);
export type CatalogMigrationOperation = z.infer<typeof CatalogMigrationOperationSchema>;

export const CatalogBreakSchema = z
  .object({
    kind: CatalogBreakKindSchema,
    /** where in the case: `expected_tool_calls/0`, `alternative_tool_calls/1/0`, `turns/2/expected_tool_calls/0` */
    call: z.string(),
    tool: z.string(),
    /** the argument concerned (top-level name or JSON pointer), absent for a whole-tool break */
    parameter: z.string().optional(),
    message: z.string(),
    /** the migration step that would fix it, when one can be inferred */
    suggestion: CatalogMigrationOperationSchema.optional(),
  })
  .strict();
export type CatalogBreak = z.infer<typeof CatalogBreakSchema>;

export const CaseCatalogImpactSchema = z
  .object({
    test_case_id: z.string(),
    /** the catalog version the case is checked against today (its pin, its own reference, or its target's) */
    current_version: z.string().nullable(),
    breaks: z.array(CatalogBreakSchema),
  })
  .strict();
export type CaseCatalogImpact = z.infer<typeof CaseCatalogImpactSchema>;

export const SuiteCatalogImpactSchema = z
  .object({
    suite_id: z.string(),
    /** the suite's pinned version of this catalog, if any */
    pinned_version: z.string().nullable(),
    checked: z.number().int().nonnegative(),
    broken: z.number().int().nonnegative(),
    cases: z.array(CaseCatalogImpactSchema),
  })
  .strict();
export type SuiteCatalogImpact = z.infer<typeof SuiteCatalogImpactSchema>;

/** Which cases of which suites no longer validate against a catalog version, with the reason per call and parameter. */
export const CatalogImpactReportSchema = z
  .object({
    catalog: z.string(),
    version: z.string(),
    suites: z.array(SuiteCatalogImpactSchema),
    checked: z.number().int().nonnegative(),
    broken: z.number().int().nonnegative(),
    /** count of breaks per kind */
    by_kind: z.record(z.string(), z.number().int().nonnegative()),
    /** migration steps inferred from the breaks (each once) */
    suggested_operations: z.array(CatalogMigrationOperationSchema),
  })
  .strict();
export type CatalogImpactReport = z.infer<typeof CatalogImpactReportSchema>;

export const CaseMigrationChangeSchema = z
  .object({ path: z.string(), before: z.unknown().optional(), after: z.unknown().optional() })
  .strict();
export type CaseMigrationChange = z.infer<typeof CaseMigrationChangeSchema>;

export const CatalogMigrationResultSchema = z
  .object({
    catalog: z.string(),
    version: z.string(),
    dry_run: z.boolean(),
    operations: z.array(CatalogMigrationOperationSchema),
    suites: z.array(
      z
        .object({
          suite_id: z.string(),
          changed: z.array(z.object({ test_case_id: z.string(), changes: z.array(CaseMigrationChangeSchema) }).strict()),
          unchanged: z.number().int().nonnegative(),
          /** cases that still break the new version after the operations (with why) */
          still_broken: z.array(CaseCatalogImpactSchema),
          /** the suite's pin of this catalog before and after (a migrated suite moves to the new version) */
          pin: z.object({ from: z.string().nullable(), to: z.string().nullable() }).strict(),
          /** the suite version published before the migration (the old bodies; only when the live suite had unpublished changes) */
          snapshot_version: z.number().int().positive().nullable(),
          /** the suite version published with the migrated bodies */
          published_version: z.number().int().positive().nullable(),
        })
        .strict(),
    ),
    changed: z.number().int().nonnegative(),
  })
  .strict();
export type CatalogMigrationResult = z.infer<typeof CatalogMigrationResultSchema>;
