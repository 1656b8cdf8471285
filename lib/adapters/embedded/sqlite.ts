import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';

/** The one better-sqlite3 connection the embedded host owns (`host.db`); every store takes it. */
export type SqliteDatabase = Database.Database;

/** A fresh opaque ETag, formatted as Cosmos DB does (a quoted UUID), so it can go into an HTTP `ETag` header as is. */
export function newEtag(): string {
  return `"${randomUUID()}"`;
}

/** Splits `items` into consecutive chunks of at most `size` (for `IN (...)` lists under SQLite's parameter limit). */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** `?, ?, ?` for `count` parameters. */
export function placeholders(count: number): string {
  return new Array<string>(count).fill('?').join(', ');
}

/** Removes the `_etag` a caller may pass back from a read (`WithEtag<T>`), so it is never stored inside a body. */
export function withoutEtag<T extends object>(value: T): T {
  if (!('_etag' in value)) return value;
  const { _etag: _ignored, ...rest } = value as T & { _etag?: unknown };
  return rest as T;
}
