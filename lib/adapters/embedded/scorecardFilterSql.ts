import type { ScorecardFilter } from '../../ports/scorecardStore.js';

/** A WHERE clause over `st_scorecards AS s` for one run, and its parameters. */
export interface ScorecardWhere {
  sql: string;
  params: Array<string | number>;
}

/**
 * Translates a ScorecardFilter for run `runId` into SQL answered by the outcome index (and the tag rows for
 * `tag`). The SQL text depends only on which filters are set, so prepared statements can be cached by it.
 */
export function scorecardFilterSql(runId: string, filter: ScorecardFilter = {}): ScorecardWhere {
  const parts = ['s.run_id = ?'];
  const params: Array<string | number> = [runId];
  if (filter.passed !== undefined) {
    parts.push('s.overall_passed = ?');
    params.push(filter.passed ? 1 : 0);
  }
  if (filter.failing_stage !== undefined) {
    parts.push('s.failing_stage = ?');
    params.push(filter.failing_stage);
  }
  if (filter.error_code !== undefined) {
    parts.push('s.error_code = ?');
    params.push(filter.error_code);
  }
  if (filter.category !== undefined) {
    parts.push('s.category = ?');
    params.push(filter.category);
  }
  if (filter.tag !== undefined) {
    parts.push('s.rowid IN (SELECT card FROM st_scorecard_tags WHERE run_id = ? AND tag = ?)');
    params.push(runId, filter.tag);
  }
  return { sql: parts.join(' AND '), params };
}
