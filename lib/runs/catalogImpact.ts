import { canonicalJson, type CatalogImpactReport, type CatalogMigrationOperation, type ToolCatalog } from '../domain/index.js';
import { caseCatalogBreaks } from '../goldset/index.js';
import type { Stores } from '../ports/index.js';
import { loadCatalog, requireCatalog, suitesOnCatalog } from './catalogSuites.js';

/**
 * Which cases of which suites no longer validate against version `version` of catalog `name`, with the reason per
 * call and parameter (caseCatalogBreaks), counts per kind, and the migration steps the breaks suggest. Only broken
 * cases are listed; `checked` counts every case that uses the catalog. NotFoundError for an unknown catalog version
 * or suite.
 */
export async function catalogImpact(
  name: string,
  version: string,
  stores: Stores,
  options: { suiteIds?: readonly string[] } = {},
): Promise<CatalogImpactReport> {
  const next = await requireCatalog(stores, name, version);
  const previous = catalogCache(stores, name);
  const report: CatalogImpactReport = { catalog: name, version, suites: [], checked: 0, broken: 0, by_kind: {}, suggested_operations: [] };
  const suggested = new Map<string, CatalogMigrationOperation>();
  for (const { suite, pinned, cases } of await suitesOnCatalog(name, stores, options.suiteIds)) {
    const entry: CatalogImpactReport['suites'][number] = { suite_id: suite.id, pinned_version: pinned, checked: 0, broken: 0, cases: [] };
    for (const { testCase, current } of cases) {
      entry.checked++;
      const breaks = caseCatalogBreaks(testCase, await previous(current), next);
      if (breaks.length === 0) continue;
      entry.broken++;
      entry.cases.push({ test_case_id: testCase.id, current_version: current, breaks });
      for (const b of breaks) {
        report.by_kind[b.kind] = (report.by_kind[b.kind] ?? 0) + 1;
        if (b.suggestion) suggested.set(canonicalJson(b.suggestion), b.suggestion);
      }
    }
    report.suites.push(entry);
    report.checked += entry.checked;
    report.broken += entry.broken;
  }
  report.suggested_operations = [...suggested.values()];
  return report;
}

/** The catalog versions cases validate against today, read once each. */
export function catalogCache(stores: Pick<Stores, 'catalogs'>, name: string): (version: string | null) => Promise<ToolCatalog | undefined> {
  const cache = new Map<string, Promise<ToolCatalog | undefined>>();
  return (version) => {
    if (version === null) return Promise.resolve(undefined);
    let hit = cache.get(version);
    if (!hit) {
      hit = loadCatalog(stores, name, version);
      cache.set(version, hit);
    }
    return hit;
  };
}
