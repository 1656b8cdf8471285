/** Partition key paths per container, as in Cosmos (`/runId`, or hierarchical `['/runId', '/shard']`). */
export type PartitionKeyPaths = Record<string, string | string[]>;

function valueAt(doc: Record<string, unknown>, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('/').filter((p) => p !== '')) {
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value ?? null;
}

/** The stored partition key: the JSON array of the values at the container's paths, or null without paths. */
export function partitionKeyOf(doc: Record<string, unknown>, paths: string | string[] | undefined): string | null {
  if (paths === undefined) return null;
  return JSON.stringify((Array.isArray(paths) ? paths : [paths]).map((path) => valueAt(doc, path)));
}
