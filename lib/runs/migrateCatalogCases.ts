import { caseContentHash, type CatalogMigrationOperation, type CatalogMigrationResult, type TestCase } from '../domain/index.js';
import { caseCatalogBreaks, migrateCase } from '../goldset/index.js';
import type { Clock, Stores } from '../ports/index.js';
import { catalogCache } from './catalogImpact.js';
import { requireCatalog, suitesOnCatalog } from './catalogSuites.js';
import { publishSuiteVersion } from './publishSuiteVersion.js';

export interface CatalogMigrationRequest {
  operations: readonly CatalogMigrationOperation[];
  /** the suites to migrate (default: every suite using the catalog) */
  suiteIds?: readonly string[];
  /** compute and show the changes, write nothing */
  dryRun: boolean;
  /** who migrates (the suite versions' author) */
  author: string;
}

/**
 * Migrates the cases of the suites using catalog `name` to its version `version`: applies the operations to every
 * expected call (migrateCase) and moves each case's own catalog reference to the new version. With `dryRun`, only
 * the changes are computed. Otherwise, per suite with changes:
 *  1. history: when the live suite differs from its newest published version (or none is published), it is
 *     published first ("before migrating ..."), so the old bodies stay readable and pinned runs keep them;
 *  2. each changed case is written as its new version (updated_at now);
 *  3. the suite's pin of the catalog moves to the new version, unless some case still breaks it (then the suite
 *     keeps running on the old version, and `still_broken` says why);
 *  4. the suite is published again with the migrated bodies (runs on `latest` then use them).
 * Idempotent: migrating again changes no case, moves no pin and publishes nothing.
 */
export async function migrateCatalogCases(
  name: string,
  version: string,
  request: CatalogMigrationRequest,
  deps: { stores: Stores; clock: Clock },
): Promise<CatalogMigrationResult> {
  const { stores, clock } = deps;
  const next = await requireCatalog(stores, name, version);
  const previous = catalogCache(stores, name);
  const result: CatalogMigrationResult = {
    catalog: name,
    version,
    dry_run: request.dryRun,
    operations: [...request.operations],
    suites: [],
    changed: 0,
  };
  const written = new Set<string>();
  for (const { suite, pinned, cases } of await suitesOnCatalog(name, stores, request.suiteIds)) {
    const entry: CatalogMigrationResult['suites'][number] = {
      suite_id: suite.id,
      changed: [],
      unchanged: 0,
      still_broken: [],
      pin: { from: pinned, to: pinned },
      snapshot_version: null,
      published_version: null,
    };
    const updates: TestCase[] = [];
    for (const { testCase, current } of cases) {
      const { testCase: migrated, changes } = migrateCase(testCase, request.operations, { name, version });
      if (changes.length > 0) {
        entry.changed.push({ test_case_id: testCase.id, changes });
        updates.push(migrated);
      } else entry.unchanged++;
      const breaks = caseCatalogBreaks(migrated, await previous(current), next);
      if (breaks.length > 0) entry.still_broken.push({ test_case_id: testCase.id, current_version: current, breaks });
    }
    const movePin = pinned !== null && pinned !== version && entry.still_broken.length === 0;
    if (movePin) entry.pin.to = version;
    result.changed += entry.changed.length;
    result.suites.push(entry);
    if (request.dryRun || (updates.length === 0 && !movePin)) continue;
    if (
      await hasUnpublishedChanges(
        suite.id,
        cases.map((c) => c.testCase),
        stores,
      )
    ) {
      entry.snapshot_version = (
        await publishSuiteVersion(suite.id, { author: request.author, note: `before migrating to tool catalog ${name}@${version}` }, deps)
      ).version;
    }
    const now = clock.now().toISOString();
    for (const tc of updates) {
      if (written.has(tc.id)) continue; // a case in two suites is written once
      written.add(tc.id);
      await stores.testCases.replaceTestCase({ ...tc, metadata: { ...tc.metadata, updated_at: now } });
    }
    if (movePin) {
      const current = await stores.suites.get(suite.id);
      if (current) {
        const { _etag, ...body } = current;
        await stores.suites.replace(
          { ...body, tool_catalogs: { ...body.tool_catalogs, [name]: version }, updated_at: now },
          { ifMatch: _etag },
        );
      }
    }
    const ops = request.operations.map((op) => op.op).join(', ') || 'catalog reference only';
    entry.published_version = (
      await publishSuiteVersion(suite.id, { author: request.author, note: `migrated to tool catalog ${name}@${version} (${ops})` }, deps)
    ).version;
  }
  return result;
}

/**
 * True when the suite has no published version, or one of `bodies` (its live cases that use the catalog) is not in
 * its newest published version with the same content hash: then the old bodies would be lost without a snapshot.
 */
async function hasUnpublishedChanges(suiteId: string, bodies: readonly TestCase[], stores: Stores): Promise<boolean> {
  const latest = (await stores.suiteVersions.listVersions(suiteId))[0];
  if (!latest) return true;
  const published = new Map<string, string>();
  for await (const c of stores.suiteVersions.iterateCases(suiteId, latest.version)) published.set(c.test_case_id, c.content_hash);
  return bodies.some((tc) => published.get(tc.id) !== caseContentHash(tc));
}
