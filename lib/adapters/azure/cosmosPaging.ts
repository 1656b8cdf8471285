import type { Container, PartitionKey, SqlParameter } from '@azure/cosmos';
import type { PageOptions } from '../../ports/index.js';
import { countWhere, queryAll } from './cosmosBulk.js';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 1_000;

export interface PageWindow {
  limit: number;
  offset: number;
}

/**
 * The page window a list uses: `limit` clamped to 1-1000 (default 50), `offset` to >= 0, as the embedded stores.
 * Cosmos pages are read as `TOP offset+limit` in the list's order and sliced (the @zeit/cosmosdb-server emulator
 * has no OFFSET/LIMIT; in Azure OFFSET costs the same request units as reading the skipped rows), so a deep page
 * costs O(offset).
 */
export function pageWindow(options: PageOptions = {}): PageWindow {
  const limit = Math.min(MAX_PAGE_LIMIT, Math.max(1, Math.floor(options.limit ?? DEFAULT_PAGE_LIMIT)));
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  return { limit, offset };
}

/** What one list page reads: `c` filtered by `where` (' WHERE ...' or ''), in `orderBy` order. */
export interface WindowQuery {
  where: string;
  parameters: SqlParameter[];
  /** e.g. 'c.created_utc DESC, c.run_id DESC' */
  orderBy: string;
  partitionKey?: PartitionKey;
}

/**
 * One page of documents: `SELECT TOP offset+limit` in order, sliced at `offset`; the total is counted with a
 * second query only when the page is full (a short read is the whole result).
 */
export async function queryWindow<D>(container: Container, query: WindowQuery, window: PageWindow): Promise<{ docs: D[]; total: number }> {
  const top = window.offset + window.limit;
  const docs = await queryAll<D>(
    container,
    {
      query: `SELECT TOP @top * FROM c${query.where} ORDER BY ${query.orderBy}`,
      parameters: [...query.parameters, { name: '@top', value: top }],
    },
    query.partitionKey,
  );
  const total = docs.length < top ? docs.length : await countWhere(container, query.where, query.parameters, query.partitionKey);
  return { docs: docs.slice(window.offset), total };
}
