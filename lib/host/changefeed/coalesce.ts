import type { ChangeLogEntry } from './changeLog.js';

/**
 * LatestVersion view of a batch: one document per id, its last write in the batch, ordered by that write
 * (as Cosmos orders items by their latest modification).
 */
export function latestVersions(entries: ChangeLogEntry[]): Array<Record<string, unknown>> {
  const latest = new Map<string, string>();
  for (const entry of entries) {
    latest.delete(entry.id);
    latest.set(entry.id, entry.body);
  }
  return [...latest.values()].map((body) => JSON.parse(body) as Record<string, unknown>);
}
