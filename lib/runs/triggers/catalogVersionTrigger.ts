import { ClientTriggersSchema, type Client, type StoredToolCatalog, type TargetSystem } from '../../domain/index.js';
import type { Clock, Stores } from '../../ports/index.js';
import { allOf } from '../catalogSuites.js';
import { fireTrigger, triggerRunId, type TriggerCheckResult } from './triggerRun.js';

/** Catalog versions in order: numeric-aware (`2` < `10`, `1.9` < `1.10`), then as text. */
export function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * A catalog's new version starts runs for the clients using it: for every client with `triggers.catalog_version`
 * whose target offers an older version of a catalog than the newest stored one, one run per suite of the client,
 * pinned to the newest version (`tool_catalogs`), recorded as `{trigger: "catalog_version", catalog, from_version,
 * to_version}`. Once per client, suite and version (deterministic ids).
 */
export async function catalogVersionTriggers(
  deps: { stores: Stores; clock: Clock },
  start: ((runId: string) => Promise<boolean>) | undefined,
  result: TriggerCheckResult,
): Promise<void> {
  const clients = (await allOf<Client>(deps.stores.clients)).filter(
    (c) => c.triggers && ClientTriggersSchema.parse(c.triggers).catalog_version,
  );
  if (clients.length === 0) return;
  const newest = new Map<string, string>();
  for (const catalog of await allOf<StoredToolCatalog>(deps.stores.catalogs)) {
    const seen = newest.get(catalog.name);
    if (seen === undefined || compareVersions(catalog.tool_schema_version, seen) > 0) newest.set(catalog.name, catalog.tool_schema_version);
  }
  for (const client of clients) {
    const target: TargetSystem | undefined = await deps.stores.targets.get(client.target_id);
    const ref = target?.tool_catalog;
    if (!ref) continue;
    const latest = newest.get(ref.name);
    if (latest === undefined || compareVersions(latest, ref.version) <= 0) continue;
    for (const suiteId of new Set(client.suite_ids)) {
      const suite = await deps.stores.suites.get(suiteId);
      await fireTrigger(
        'catalog_version',
        {
          client_id: client.id,
          suite_id: suiteId,
          run_id: triggerRunId('catalog_version', client.id, suiteId, `${ref.name}@${latest}`),
          tool_catalogs: { ...suite?.tool_catalogs, [ref.name]: latest },
          trigger_metadata: { catalog: ref.name, from_version: ref.version, to_version: latest },
        },
        deps,
        start,
        result,
      );
    }
  }
}
