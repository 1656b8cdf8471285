/** Offset paging, as the API exposes it (`limit`/`offset`, `total`, `has_more`). */
export interface PageOptions {
  /** 1-1000, default 50 */
  limit?: number;
  offset?: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  has_more: boolean;
  limit: number;
  offset: number;
}

/** A stored entity with its ETag (opaque; changes on every write). */
export type WithEtag<T> = T & { _etag: string };

export function pageOf<T>(items: T[], total: number, options: PageOptions): Page<T> {
  const limit = options.limit ?? 50;
  const offset = options.offset ?? 0;
  return { items, total, has_more: offset + items.length < total, limit, offset };
}
