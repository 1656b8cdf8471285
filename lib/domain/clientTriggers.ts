import { z } from 'zod';

/** The kinds of run trigger besides schedules; recorded on each run a trigger starts as `trigger_metadata.trigger`. */
export const TRIGGER_KINDS = ['model_version_change', 'catalog_version', 'new_cases'] as const;
export const TriggerKindSchema = z.enum(TRIGGER_KINDS);
export type TriggerKind = z.infer<typeof TriggerKindSchema>;

/**
 * What starts runs of a client besides its schedules (all off by default):
 * - `model_version_change`: a finished run of the client saw a different model version than its baseline on the
 *   same target: re-evaluate every suite of the client (once per new version set);
 * - `catalog_version`: the tool catalog the client's target uses got a newer version: run every suite of the
 *   client against it (the run pins the new version; once per version);
 * - `new_cases`: cases were added to a suite of the client: run just those cases, once the additions have been
 *   quiet for `new_cases_debounce_seconds` (a bulk import starts one run, not one per case).
 */
export const ClientTriggersSchema = z
  .object({
    model_version_change: z.boolean().default(false),
    catalog_version: z.boolean().default(false),
    new_cases: z.boolean().default(false),
    /** quiet period after the last added case before the new-case run starts (default 120 s) */
    new_cases_debounce_seconds: z.number().int().min(0).max(86_400).default(120),
  })
  .strict();
export type ClientTriggers = z.infer<typeof ClientTriggersSchema>;
