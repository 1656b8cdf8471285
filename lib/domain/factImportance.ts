import { z } from 'zod';

/** How much an expected fact matters: a missing critical fact fails stage 4 whatever the other scores. */
export const FACT_IMPORTANCE = ['critical', 'important', 'minor'] as const;
export const FactImportanceSchema = z.enum(FACT_IMPORTANCE);
export type FactImportance = z.infer<typeof FactImportanceSchema>;

/** Weights in fact coverage. */
export const FACT_WEIGHTS: Record<FactImportance, number> = { critical: 3, important: 2, minor: 1 };

/** The importance of fact i (default `important`). */
export function importanceOf(importance: readonly FactImportance[] | undefined, index: number): FactImportance {
  return importance?.[index] ?? 'important';
}
