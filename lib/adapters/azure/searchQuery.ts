import { DEFAULT_ORGANIZATION, type TestCaseFilter } from '../../domain/index.js';
import type { OrganizationScope } from '../../ports/index.js';
import { foldedWords } from './cosmosSearchText.js';

const MIN_PREFIX_LENGTH = 3;
const literal = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/**
 * The OData filter of a test-case filter's structured parts (tags any/all, complexity range, api_version,
 * category, and the organization of a scoped list) over the gold-set index; undefined when there is none. `q` is the search text (searchText).
 */
export function odataFilter(filter: TestCaseFilter & OrganizationScope, extra: string[] = []): string | undefined {
  const parts: string[] = [];
  // an organization's cases only (lib/tenancy); documents indexed before organizations (null) are `default`'s
  if (filter.organization !== undefined)
    parts.push(
      filter.organization === DEFAULT_ORGANIZATION
        ? `organization eq ${literal(DEFAULT_ORGANIZATION)} or organization eq null`
        : `organization eq ${literal(filter.organization)}`,
    );
  const tags = [...new Set(filter.tags ?? [])];
  if (tags.length > 0) {
    parts.push(
      filter.tags_mode === 'all'
        ? tags.map((tag) => `tags/any(t: t eq ${literal(tag)})`).join(' and ')
        : `tags/any(t: ${tags.map((tag) => `t eq ${literal(tag)}`).join(' or ')})`,
    );
  }
  if (filter.complexity_min !== undefined) parts.push(`complexity ge ${filter.complexity_min}`);
  if (filter.complexity_max !== undefined) parts.push(`complexity le ${filter.complexity_max}`);
  if (filter.api_version !== undefined) parts.push(`api_version eq ${literal(filter.api_version)}`);
  if (filter.category !== undefined) parts.push(`category eq ${literal(filter.category)}`);
  parts.push(...extra);
  return parts.length > 0 ? parts.map((p) => (parts.length > 1 ? `(${p})` : p)).join(' and ') : undefined;
}

export const keysetAfter = (caseId: string): string => `case_id gt ${literal(caseId)}`;

/**
 * The simple-syntax search text of `q` (searchMode 'all'): each whitespace-separated term becomes its folded
 * words (a quoted phrase when several), the last term a prefix from 3 characters; only letters and digits reach
 * the query, so Lucene operators in `q` are plain text. Undefined when `q` has no letter or digit. The same
 * semantics as the Cosmos DB CONTAINS fallback and the embedded FTS5 query.
 */
export function searchText(q: string): string | undefined {
  const terms = q.split(/\s+/u).filter((term) => /[\p{L}\p{N}]/u.test(term));
  if (terms.length === 0) return undefined;
  return terms
    .map((term, i) => {
      const words = foldedWords(term);
      const prefix = i === terms.length - 1 && [...term].length >= MIN_PREFIX_LENGTH;
      if (!prefix) return words.length > 1 ? `"${words.join(' ')}"` : words[0]!;
      const last = `${words[words.length - 1]}*`;
      return words.length > 1 ? `"${words.slice(0, -1).join(' ')}" ${last}` : last;
    })
    .join(' ');
}
