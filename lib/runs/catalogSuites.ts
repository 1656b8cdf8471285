import { toolCatalogId, type Client, type TargetSystem, type TestCase, type TestSuite, type ToolCatalog } from '../domain/index.js';
import { NotFoundError, type Stores } from '../ports/index.js';
import { liveSuiteCaseIds, runCaseBodies } from './suiteCases.js';

const PAGE = 100;

/** Every entity of a store, a page at a time (suites, clients and targets are counted in hundreds, not millions). */
export async function allOf<T>(store: {
  list(o: { limit: number; offset: number }): Promise<{ items: T[]; has_more: boolean }>;
}): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await store.list({ limit: PAGE, offset });
    out.push(...page.items);
    if (!page.has_more) return out;
  }
}

/** A suite's cases that use a catalog, each with the version it validates against today. */
export interface SuiteOnCatalog {
  suite: TestSuite;
  /** the suite's pin of the catalog, if any */
  pinned: string | null;
  cases: Array<{ testCase: TestCase; current: string | null }>;
}

/** A catalog version as the validator takes it (no store id). */
export async function loadCatalog(stores: Pick<Stores, 'catalogs'>, name: string, version: string): Promise<ToolCatalog | undefined> {
  const stored = await stores.catalogs.get(toolCatalogId(name, version));
  if (!stored) return undefined;
  return {
    name: stored.name,
    tool_schema_version: stored.tool_schema_version,
    tools: stored.tools,
    ...(stored.description ? { description: stored.description } : {}),
  };
}

/** The new catalog version, or NotFoundError naming it. */
export async function requireCatalog(stores: Pick<Stores, 'catalogs'>, name: string, version: string): Promise<ToolCatalog> {
  const catalog = await loadCatalog(stores, name, version);
  if (!catalog) throw new NotFoundError('tool catalog', toolCatalogId(name, version));
  return catalog;
}

/**
 * The suites whose cases use catalog `name` (the suite pins it, a case names it, or a client of the suite runs a
 * target offering it), with those cases (live bodies) and the version each validates against today: the suite's
 * pin, else the case's own reference, else the target's. `suiteIds` limits the search (NotFoundError for an
 * unknown one).
 */
export async function suitesOnCatalog(name: string, stores: Stores, suiteIds?: readonly string[]): Promise<SuiteOnCatalog[]> {
  const suites: TestSuite[] = [];
  if (suiteIds) {
    for (const id of suiteIds) {
      const suite = await stores.suites.get(id);
      if (!suite) throw new NotFoundError('test suite', id);
      suites.push(suite);
    }
  } else suites.push(...(await allOf(stores.suites)));
  const targets = new Map((await allOf<TargetSystem>(stores.targets)).map((t) => [t.id, t]));
  const targetVersionBySuite = new Map<string, string>();
  for (const client of await allOf<Client>(stores.clients)) {
    const ref = targets.get(client.target_id)?.tool_catalog;
    if (ref?.name !== name) continue;
    for (const id of client.suite_ids) if (!targetVersionBySuite.has(id)) targetVersionBySuite.set(id, ref.version);
  }
  const out: SuiteOnCatalog[] = [];
  for (const suite of suites) {
    const pinned = suite.tool_catalogs?.[name] ?? null;
    const targetVersion = targetVersionBySuite.get(suite.id) ?? null;
    const ids = await liveSuiteCaseIds(suite, stores);
    const bodies = await runCaseBodies({ suite_id: suite.id, suite_version: null }, ids, stores);
    const cases: SuiteOnCatalog['cases'] = [];
    for (const testCase of bodies) {
      const own = testCase.tool_catalog?.name === name ? testCase.tool_catalog.version : null;
      if (pinned === null && own === null && targetVersion === null) continue;
      cases.push({ testCase, current: pinned ?? own ?? targetVersion });
    }
    if (cases.length > 0 || pinned !== null) out.push({ suite, pinned, cases });
  }
  return out;
}
