import { TERMINAL_RUN_STATUSES, pinnedCatalogRef, type Run, type TargetSystem, type TestCase, type ToolCatalog } from '../domain/index.js';
import type { ApiProvider, Embedder, Judge, Services, TargetInvoker } from '../ports/index.js';
import { targetNeedsToolExecutor } from '../targets/index.js';
import { budgetedJudge, budgetLedgerFor } from '../tenancy/index.js';

/** What a stage worker needs about one run, looked up once per batch (and cached briefly across batches). */
export interface RunContext {
  run: Run;
  target: TargetSystem;
  invoker: TargetInvoker;
  catalogFor(testCase: TestCase): ToolCatalog | undefined;
  apiProvider(testCase: TestCase): Promise<ApiProvider>;
  judge(): Judge;
  /** the embedder of the embedding_cosine reference metric, if configured */
  embedder(): Embedder | undefined;
}

const TTL_MS = 1_000;

/**
 * A short-lived cache of run contexts: a 400,000-case run must not read its run, target and catalog rows once
 * per message, but a cancellation must be seen within about a second.
 */
export class RunContextCache {
  private readonly entries = new Map<string, { at: number; context: RunContext | undefined }>();
  private readonly catalogs = new Map<string, ToolCatalog | undefined>();
  private readonly providers = new Map<string, Promise<ApiProvider>>();
  private readonly judges = new Map<string, Judge>();

  constructor(private readonly services: Services) {}

  /** The context of a run that is still live, or undefined when the run is gone or finished (skip its messages). */
  async get(runId: string): Promise<RunContext | undefined> {
    const now = Date.now();
    const hit = this.entries.get(runId);
    if (hit && now - hit.at < TTL_MS) return hit.context;
    const context = await this.load(runId);
    this.entries.set(runId, { at: now, context });
    if (this.entries.size > 1_000) this.entries.delete(this.entries.keys().next().value as string);
    return context;
  }

  private async load(runId: string): Promise<RunContext | undefined> {
    const { stores } = this.services;
    const run = await stores.runs.getRun(runId);
    if (!run || TERMINAL_RUN_STATUSES.has(run.status)) return undefined;
    const target = await stores.targets.get(run.target_id);
    if (!target) return undefined;
    // a run pinned to catalog versions (its suite's, until migrated) offers and validates those, whatever the target names
    const pins = run.tool_catalogs;
    await Promise.all(Object.entries(pins ?? {}).map(([name, version]) => this.catalog(`${name}@${version}`)));
    const targetRef = pinnedCatalogRef(target.tool_catalog, pins);
    const targetCatalogId = targetRef ? `${targetRef.name}@${targetRef.version}` : undefined;
    if (targetCatalogId) await this.catalog(targetCatalogId);
    const targetCatalog = targetCatalogId ? this.catalogs.get(targetCatalogId) : undefined;
    // a target with a tool loop executes its calls through the run's stage-3 provider (built once per run);
    // a provider that cannot be built throws here (ExecutionConfigurationError: the run fails at once)
    const tools = targetNeedsToolExecutor(target) ? await this.provider(run, targetCatalogId, () => targetCatalog, target) : undefined;
    const invoker = this.services.invokerFor(target, targetCatalog, tools);
    const catalogFor = (tc: TestCase): ToolCatalog | undefined => {
      const ref = targetRef ?? pinnedCatalogRef(tc.tool_catalog, pins);
      return ref ? this.catalogs.get(`${ref.name}@${ref.version}`) : undefined;
    };
    return {
      run,
      target,
      invoker,
      catalogFor,
      apiProvider: (tc) => {
        const ref = pinnedCatalogRef(tc.tool_catalog, pins) ?? targetRef;
        const catalogId = ref ? `${ref.name}@${ref.version}` : undefined;
        return this.provider(run, catalogId, () => catalogFor(tc), target);
      },
      judge: () => {
        let j = this.judges.get(run.id);
        if (!j) {
          // the organization's monthly budget stands in front of every judge call (lib/tenancy budgets)
          j = budgetedJudge(this.services.judgeFor(run), run, budgetLedgerFor(this.services));
          this.judges.set(run.id, j);
        }
        return j;
      },
      embedder: () => this.services.referenceEmbedder?.(),
    };
  }

  /** Forgets a run's context at once (a run just failed: its next messages must see it finished). */
  forget(runId: string): void {
    this.entries.delete(runId);
  }

  /** The run's stage-3 provider for one catalog, built once (a batch asks for it hundreds of times at once). */
  private provider(
    run: Run,
    catalogId: string | undefined,
    catalog: () => ToolCatalog | undefined,
    target?: TargetSystem,
  ): Promise<ApiProvider> {
    const key = `${run.id}|${catalogId ?? ''}`;
    let p = this.providers.get(key);
    if (!p) {
      // set before the first await, so the cassette is loaded once
      p = (catalogId ? this.catalog(catalogId) : Promise.resolve()).then(() => this.services.apiProviderFor(run, catalog(), target));
      this.providers.set(key, p);
      p.catch(() => this.providers.delete(key));
    }
    return p;
  }

  /** Loads (once) the catalogs the cases of a batch refer to. */
  async preloadCatalogs(testCases: readonly TestCase[]): Promise<void> {
    const ids = new Set<string>();
    for (const tc of testCases) if (tc.tool_catalog) ids.add(`${tc.tool_catalog.name}@${tc.tool_catalog.version}`);
    await Promise.all([...ids].map((id) => this.catalog(id)));
  }

  private readonly loadingCatalogs = new Map<string, Promise<void>>();

  private catalog(id: string): Promise<void> {
    if (this.catalogs.has(id)) return Promise.resolve();
    let loading = this.loadingCatalogs.get(id);
    if (!loading) {
      loading = this.services.stores.catalogs.get(id).then((stored) => {
        this.catalogs.set(
          id,
          stored
            ? {
                name: stored.name,
                tool_schema_version: stored.tool_schema_version,
                tools: stored.tools,
                ...(stored.description ? { description: stored.description } : {}),
              }
            : undefined,
        );
        this.loadingCatalogs.delete(id);
      });
      this.loadingCatalogs.set(id, loading);
    }
    return loading;
  }
}
