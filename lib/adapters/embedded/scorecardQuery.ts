import type { ScorecardFilter } from '../../ports/index.js';

/**
 * The cards of one run matching a filter: rows of `from` (alias `s`, with the filter columns) satisfying `where`;
 * `card` is the expression of the card's rowid.
 */
export interface ScorecardQuery {
  from: 'st_scorecards s' | 'st_scorecard_tags s';
  card: 's.rowid' | 's.card';
  where: string;
  params: Array<string | number>;
}

/**
 * Translates a ScorecardFilter for run `runId` into SQL answered by an index: the outcome index of the cards, or,
 * with `tag`, the tag rows (which repeat the filter columns). The SQL text depends only on which filters are set,
 * so prepared statements can be cached by it.
 */
export function scorecardQuery(runId: string, filter: ScorecardFilter = {}): ScorecardQuery {
  const tagged = filter.tag !== undefined;
  const parts = tagged ? ['s.run_id = ?', 's.tag = ?'] : ['s.run_id = ?'];
  const params: Array<string | number> = tagged ? [runId, filter.tag!] : [runId];
  if (filter.passed !== undefined) {
    parts.push('s.overall_passed = ?');
    params.push(filter.passed ? 1 : 0);
  }
  for (const column of ['failing_stage', 'error_code', 'category'] as const) {
    const value = filter[column];
    if (value !== undefined) {
      parts.push(`s.${column} = ?`);
      params.push(value);
    }
  }
  return tagged
    ? { from: 'st_scorecard_tags s', card: 's.card', where: parts.join(' AND '), params }
    : { from: 'st_scorecards s', card: 's.rowid', where: parts.join(' AND '), params };
}
