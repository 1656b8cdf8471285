import { pageOf, type Page, type PageOptions } from '../../ports/index.js';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 1000;

/** The limit/offset a list actually uses: limit clamped to 1-1000 (default 50), offset >= 0 (default 0), integers. */
export function pageWindow(options: PageOptions = {}): { limit: number; offset: number } {
  const limit = Number.isFinite(options.limit) ? Math.min(MAX_PAGE_LIMIT, Math.max(1, Math.trunc(options.limit!))) : DEFAULT_PAGE_LIMIT;
  const offset = Number.isFinite(options.offset) ? Math.max(0, Math.trunc(options.offset!)) : 0;
  return { limit, offset };
}

/** A page in the port's shape, echoing the window actually used. */
export function pageIn<T>(items: T[], total: number, window: { limit: number; offset: number }): Page<T> {
  return pageOf(items, total, window);
}
