import { toolCatalogId, type StoredToolCatalog, type TestCase, type ToolCatalog } from '../domain/index.js';
import type { EntityStore, TestCaseStore } from '../ports/index.js';

/** The stores an import writes to. */
export interface ImportCaseStores {
  catalogs: Pick<EntityStore<StoredToolCatalog>, 'upsert'>;
  testCases: Pick<TestCaseStore, 'upsertTestCases'>;
}

/** What an import stored: cases created and replaced, and the ids of the tool catalogs it brought. */
export interface StoredImport {
  created: number;
  updated: number;
  catalogs: string[];
}

/**
 * Stores validated cases and the tool catalogs they came with (BFCL files bring theirs): the catalogs first (idempotent
 * upserts, so no stored case ever names a missing catalog), then ALL the cases in ONE `upsertTestCases` call, which the
 * store commits as one transaction (port contract; embedded: one SQLite transaction): a process killed mid-import
 * leaves none of the cases or all of them, and storing the same cases again gives the same result (upsert by id).
 * The one way cases enter the gold set: the import route, the demo and the evaluation API use it.
 */
export async function importCases(
  stores: ImportCaseStores,
  input: { cases: readonly TestCase[]; catalogs?: readonly ToolCatalog[] },
): Promise<StoredImport> {
  const catalogs: string[] = [];
  for (const catalog of input.catalogs ?? []) {
    const id = toolCatalogId(catalog.name, catalog.tool_schema_version);
    await stores.catalogs.upsert({ ...catalog, id });
    catalogs.push(id);
  }
  const { created, updated } = await stores.testCases.upsertTestCases([...input.cases]);
  return { created, updated, catalogs };
}
