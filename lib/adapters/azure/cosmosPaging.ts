import type { PageOptions } from '../../ports/paging.js';

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
