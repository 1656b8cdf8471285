import { toolCatalogId, type StoredToolCatalog, type TestCase, type ToolCatalog } from '../domain/index.js';
import type { EntityStore, TestCaseStore } from '../ports/index.js';

/** The stores an import writes to. */
export interface ImportCaseStores {
  catalogs: Pick<EntityStore<StoredToolCatalog>, 'upsert'>;
  testCases: Pick<TestCaseStore, 'upsertTestCases' | 'getTestCases'>;
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
  input: { cases: readonly TestCase[]; catalogs?: readonly ToolCatalog[]; now?: Date },
): Promise<StoredImport> {
  const catalogs: string[] = [];
  for (const catalog of input.catalogs ?? []) {
    const id = toolCatalogId(catalog.name, catalog.tool_schema_version);
    await stores.catalogs.upsert({ ...catalog, id });
    catalogs.push(id);
  }
  const { created, updated } = await stores.testCases.upsertTestCases(await stampNewCases(stores, input.cases, input.now ?? new Date()));
  return { created, updated, catalogs };
}

const LOOKUP_CHUNK = 1_000;

/**
 * Cases that carry no `metadata.created_at` get one: a stored case keeps its stored creation time, a new one gets
 * the import time, so the new-case trigger sees when each case joined (lib/runs/triggers) and re-importing the
 * same file changes no content hash. A creation time the source gives is kept.
 */
async function stampNewCases(stores: ImportCaseStores, cases: readonly TestCase[], now: Date): Promise<TestCase[]> {
  const unstamped = cases.filter((tc) => tc.metadata.created_at === undefined).map((tc) => tc.id);
  if (unstamped.length === 0) return [...cases];
  const stored = new Map<string, string | undefined>();
  for (let i = 0; i < unstamped.length; i += LOOKUP_CHUNK)
    for (const tc of await stores.testCases.getTestCases(unstamped.slice(i, i + LOOKUP_CHUNK))) stored.set(tc.id, tc.metadata.created_at);
  const at = now.toISOString();
  return cases.map((tc) => {
    if (tc.metadata.created_at !== undefined) return tc;
    const created_at = stored.has(tc.id) ? stored.get(tc.id) : at;
    return created_at === undefined ? tc : { ...tc, metadata: { ...tc.metadata, created_at } };
  });
}
