import { utcIso } from '../shared/index.js';
import type { RunFilter } from '../../ports/index.js';

/** A WHERE clause over `st_runs` and its parameters. */
export interface RunWhere {
  sql: string;
  params: string[];
}

/**
 * Translates a RunFilter into SQL. `created_after` is inclusive and `created_before` exclusive (half-open, so
 * consecutive windows tile); both are ISO date-times with any offset, compared in UTC. Throws a RangeError for a
 * bound that is not a date-time (the API validates filters before they get here).
 */
export function runFilterSql(filter: RunFilter = {}): RunWhere {
  const parts: string[] = [];
  const params: string[] = [];
  for (const column of ['organization', 'client_id', 'suite_id', 'target_id', 'status'] as const) {
    const value = filter[column];
    if (value !== undefined) {
      parts.push(`${column} = ?`);
      params.push(value);
    }
  }
  if (filter.created_after !== undefined) {
    parts.push('created_at >= ?');
    params.push(utcIso(filter.created_after, 'created_after'));
  }
  if (filter.created_before !== undefined) {
    parts.push('created_at < ?');
    params.push(utcIso(filter.created_before, 'created_before'));
  }
  return { sql: parts.length > 0 ? parts.join(' AND ') : '1', params };
}
