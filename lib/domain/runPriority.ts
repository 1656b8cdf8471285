import { z } from 'zod';

/**
 * A run's priority: when several runs share the stage queues, workers take the messages of higher-priority runs
 * first (a CI run for a PR overtakes a nightly full run). Absent = `normal`. README "Run priorities" has the policy:
 * embedded, one queue ranked by priority with aging; in Azure, one Service Bus queue per priority.
 */
export const RUN_PRIORITIES = ['high', 'normal', 'low'] as const;
export const RunPrioritySchema = z.enum(RUN_PRIORITIES);
export type RunPriority = z.infer<typeof RunPrioritySchema>;

/** The priority of a run's config (`normal` when absent). */
export function priorityOf(config: { priority?: RunPriority | undefined }): RunPriority {
  return config.priority ?? 'normal';
}
