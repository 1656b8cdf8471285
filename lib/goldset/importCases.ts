import { toolCatalogId, type StoredToolCatalog, type TestCase, type ToolCatalog } from '../domain/index.js';
import type { EntityStore, TestCaseStore } from '../ports/index.js';

/** Cases written per transaction. */
export const IMPORT_WRITE_BATCH = 5_000;

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
 * Stores validated cases and the tool catalogs they came with (BFCL files bring theirs): the catalogs first,
 * each under `${name}@${tool_schema_version}`, then the cases, created or replaced by id, in transactions of
 * `batchSize`. The one way cases enter the gold set: the import route, the demo and the evaluation API use it.
 */
export async function importCases(
  stores: ImportCaseStores,
  input: { cases: readonly TestCase[]; catalogs?: readonly ToolCatalog[] },
  options: { batchSize?: number } = {},
): Promise<StoredImport> {
  const batchSize = options.batchSize ?? IMPORT_WRITE_BATCH;
  const catalogs: string[] = [];
  for (const catalog of input.catalogs ?? []) {
    const id = toolCatalogId(catalog.name, catalog.tool_schema_version);
    await stores.catalogs.upsert({ ...catalog, id });
    catalogs.push(id);
  }
  let created = 0;
  let updated = 0;
  for (let i = 0; i < input.cases.length; i += batchSize) {
    const counts = await stores.testCases.upsertTestCases(input.cases.slice(i, i + batchSize));
    created += counts.created;
    updated += counts.updated;
  }
  return { created, updated, catalogs };
}
