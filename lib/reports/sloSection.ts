import type { SloCompliance } from '../domain/index.js';

/** The words of an SLO status, for people. */
export const SLO_STATUS_TEXT: Record<SloCompliance['status'], string> = {
  met: 'met',
  violated: 'VIOLATED',
  not_significant: 'above target, not significant',
  too_few_cases: 'too few cases',
};

/** One row of the SLO table: category, target, p95, cases above / cases, p, status (with the severity when violated). */
export function sloRow(c: SloCompliance): string[] {
  return [
    c.category,
    `${c.target_p95_ms} ms`,
    c.p95_ms === null ? '-' : `${Math.round(c.p95_ms)} ms`,
    `${c.above_target} / ${c.cases} (min ${c.min_cases})`,
    c.p_value === null ? '-' : c.p_value < 0.001 ? '< 0.001' : c.p_value.toFixed(3),
    `${SLO_STATUS_TEXT[c.status]}${c.severity ? ` (${c.severity})` : ''}`,
  ];
}

export const SLO_HEADER = ['category', 'p95 target', 'p95', 'above target / cases', 'p (one-sided)', 'status'];
