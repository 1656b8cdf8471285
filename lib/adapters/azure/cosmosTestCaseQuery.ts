import type { SqlParameter } from '@azure/cosmos';
import type { TestCaseFilter } from '../../domain/index.js';
import { searchNeedles } from './cosmosSearchText.js';
import { organizationCondition } from './cosmosOrganization.js';
import type { OrganizationScope } from '../../ports/index.js';

export interface WhereClause {
  /** ` WHERE ...` or '' */
  where: string;
  parameters: SqlParameter[];
}

/**
 * The WHERE clause of a test-case filter over the `testcases` container's documents (`tags`, `complexity`,
 * `api_version`, `category`, `search`, and `body.organization` when the filter names one, missing = `default`); undefined when the filter can match nothing (a `q` without a word).
 * Values are always parameters, never spliced into the text.
 */
export function testCaseWhere(filter: TestCaseFilter & OrganizationScope = {}): WhereClause | undefined {
  const conditions: string[] = [];
  const parameters: SqlParameter[] = [];
  const param = (value: string | number): string => {
    const name = `@p${parameters.length}`;
    parameters.push({ name, value });
    return name;
  };
  const tags = [...new Set(filter.tags ?? [])];
  if (tags.length > 0) {
    const joiner = filter.tags_mode === 'all' ? ' AND ' : ' OR ';
    conditions.push(`(${tags.map((tag) => `ARRAY_CONTAINS(c.tags, ${param(tag)})`).join(joiner)})`);
  }
  if (filter.complexity_min !== undefined) conditions.push(`c.complexity >= ${param(filter.complexity_min)}`);
  if (filter.complexity_max !== undefined) conditions.push(`c.complexity <= ${param(filter.complexity_max)}`);
  if (filter.api_version !== undefined) conditions.push(`c.api_version = ${param(filter.api_version)}`);
  if (filter.category !== undefined) conditions.push(`c.category = ${param(filter.category)}`);
  if (filter.organization !== undefined)
    conditions.push(organizationCondition('c.body.organization', param(filter.organization), filter.organization));
  if (filter.q !== undefined) {
    const needles = searchNeedles(filter.q);
    if (!needles) return undefined;
    for (const needle of needles) conditions.push(`CONTAINS(c.search, ${param(needle)})`);
  }
  return { where: conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '', parameters };
}

/** Appends a condition to a WHERE clause. */
export function andWhere(clause: WhereClause, condition: string): string {
  return clause.where ? `${clause.where} AND ${condition}` : ` WHERE ${condition}`;
}
