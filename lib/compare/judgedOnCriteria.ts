import type { Run } from '../domain/index.js';

/**
 * Whether a run's stage 4 used an LLM judge scoring rubric criteria, so its scorecards carry per-criterion scores
 * (counted outcomes never do: readers that need the criteria read such a run's scorecards).
 */
export function judgedOnCriteria(run: Pick<Run, 'config'>): boolean {
  const semantics = run.config.semantics;
  return semantics.enabled && semantics.judge !== 'local' && semantics.scoring === 'criteria';
}
