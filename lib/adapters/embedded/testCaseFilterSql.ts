import type { TestCaseFilter } from '../../domain/index.js';
import type { OrganizationScope } from '../../ports/index.js';
import { toFtsQuery } from './ftsQuery.js';

export type SqlParam = string | number;

/** A gold-set filter, restricted to one organization when `organization` is set. */
export type ScopedCaseFilter = TestCaseFilter & OrganizationScope;

/** The FTS5 table (FTS5 takes its MATCH column by table name, not by alias). */
const FTS = 'st_test_case_fts';

/**
 * One SELECT over the cases matching a filter: `from` binds alias `x` (with columns category, complexity and
 * api_version, except for a bare FTS5 match), `rid` is the expression of the case's rid; `params` bind `from`'s
 * placeholders first (none today), then `where`'s.
 */
export interface CaseQueryArm {
  from: string;
  rid: string;
  where: string;
  params: SqlParam[];
}

/** The matching cases: the UNION of the arms (several arms only for `any` of several tags), each in rid order. */
export interface CaseQuery {
  arms: CaseQueryArm[];
}

/**
 * Translates a TestCaseFilter into SQL that the covering indexes answer in rid order without reading bodies:
 * - no tags, no `q`: the narrow case table (through the index of an equality filter);
 * - `q` alone: the FTS5 matches (rowid = rid); with other filters, a membership test (`rid IN (matches)`), so
 *   the planner can drive from an index or from the matches;
 * - tags `all`: the tag table driven by the first tag (callers put the rarest first), the others checked by key;
 * - tags `any`: one arm per tag, merged in rid order by UNION (so LIMIT stops early); an empty list filters nothing.
 * `organization` restricts every arm to that organization's cases (`x.rid IN (...)`). `q` goes through `toFtsQuery`; text without a letter or digit matches no case. `ordered` (pages, id streams)
 * keeps the complexity index out of the plan, so a broad complexity range is read in rid order and stops at the
 * page instead of sorting every match; counts leave it on. The SQL text depends only on which filters are set and
 * the tag count, never on values, so prepared statements can be cached by it.
 */
export function testCaseQuery(filter: ScopedCaseFilter = {}, options: { ordered?: boolean } = {}): CaseQuery {
  const tags = [...new Set(filter.tags ?? [])];
  const match = filter.q === undefined ? undefined : toFtsQuery(filter.q);
  const conditions: string[] = [];
  const params: SqlParam[] = [];
  const add = (sql: string, value?: SqlParam): void => {
    conditions.push(sql);
    if (value !== undefined) params.push(value);
  };
  // the row's own column: the case table and the tag rows both carry it, and every index ends with it. Never
  // `x.rid IN (SELECT rid ... WHERE organization = ?)`: SQLite builds that whole list again for every page, so an id
  // stream of n cases cost O(n^2) (100,000 ids took 2.7 s; 400,000 took ~45 s of a run's start)
  if (filter.organization !== undefined) add('x.organization = ?', filter.organization);
  if (filter.category !== undefined) add('x.category = ?', filter.category);
  if (filter.api_version !== undefined) add('x.api_version = ?', filter.api_version);
  const complexity = options.ordered && tags.length === 0 ? '+x.complexity' : 'x.complexity';
  if (filter.complexity_min !== undefined) add(`${complexity} >= ?`, filter.complexity_min);
  if (filter.complexity_max !== undefined) add(`${complexity} <= ?`, filter.complexity_max);
  if (filter.q !== undefined && match === undefined) add('0');

  if (tags.length === 0) {
    if (match === undefined) return { arms: [{ from: 'st_test_cases x', rid: 'x.rid', where: joinAnd(conditions), params }] };
    if (conditions.length === 0) return { arms: [{ from: FTS, rid: `${FTS}.rowid`, where: `${FTS} MATCH ?`, params: [match] }] };
  }
  if (match !== undefined) add(`x.rid IN (SELECT rowid FROM ${FTS} WHERE ${FTS} MATCH ?)`, match);
  if (tags.length === 0) return { arms: [{ from: 'st_test_cases x', rid: 'x.rid', where: joinAnd(conditions), params }] };
  if (filter.tags_mode === 'all' || tags.length === 1) {
    const others = tags.slice(1).map(() => 'EXISTS (SELECT 1 FROM st_test_case_tags t WHERE t.tag = ? AND t.rid = x.rid)');
    return {
      arms: [
        {
          from: 'st_test_case_tags x',
          rid: 'x.rid',
          where: joinAnd(['x.tag = ?', ...others, ...conditions]),
          params: [...tags, ...params],
        },
      ],
    };
  }
  return {
    arms: tags.map((tag) => ({
      from: 'st_test_case_tags x',
      rid: 'x.rid',
      where: joinAnd(['x.tag = ?', ...conditions]),
      params: [tag, ...params],
    })),
  };
}

function joinAnd(parts: string[]): string {
  return parts.length > 0 ? parts.join(' AND ') : '1';
}

/**
 * `SELECT <rid> AS rid FROM arm1 WHERE .. UNION SELECT ..` with `after` (a rid the rows must exceed) ANDed into
 * every arm, and its parameters in order.
 */
export function matchingRidsSql(query: CaseQuery, after?: number): { sql: string; params: SqlParam[] } {
  const params: SqlParam[] = [];
  const selects = query.arms.map((arm) => {
    params.push(...arm.params);
    if (after === undefined) return `SELECT ${arm.rid} AS rid FROM ${arm.from} WHERE ${arm.where}`;
    params.push(after);
    return `SELECT ${arm.rid} AS rid FROM ${arm.from} WHERE ${arm.where} AND ${arm.rid} > ?`;
  });
  return { sql: selects.join(' UNION '), params };
}
