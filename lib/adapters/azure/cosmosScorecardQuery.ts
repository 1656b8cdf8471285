import type { SqlParameter } from '@azure/cosmos';
import type { ScorecardFilter } from '../../ports/index.js';

/** The WHERE clause of a run's scorecards with a filter (values as parameters). */
export function scorecardWhere(runId: string, filter: ScorecardFilter): { where: string; parameters: SqlParameter[] } {
  const parameters: SqlParameter[] = [{ name: '@run', value: runId }];
  const conditions = ['c.run_id = @run'];
  const add = (condition: string, value: string | boolean) => {
    const name = `@p${parameters.length}`;
    parameters.push({ name, value });
    conditions.push(condition.replace('?', name));
  };
  if (filter.passed !== undefined) add('c.overall_passed = ?', filter.passed);
  if (filter.failing_stage !== undefined) add('c.failing_stage = ?', filter.failing_stage);
  if (filter.error_code !== undefined) add('c.error_code = ?', filter.error_code);
  if (filter.tag !== undefined) add('ARRAY_CONTAINS(c.tags, ?)', filter.tag);
  if (filter.category !== undefined) add('c.category = ?', filter.category);
  return { where: ` WHERE ${conditions.join(' AND ')}`, parameters };
}
