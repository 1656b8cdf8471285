import type { Run, TargetSystem, ToolCatalog } from '../domain/index.js';
import type { ApiProvider } from '../evaluation/execution/index.js';
import type { Judge } from '../judges/index.js';
import type { Embedder } from '../ports/embedder.js';
import type { PairwiseJudgeLike } from '../compare/pairwiseRuns.js';
import type { ApiKeyStore, Clock, QueuePort, Stores } from '../ports/index.js';
import type { TargetInvoker } from '../targets/target.js';

/**
 * Everything the function app needs at run time, behind ports. The embedded host provides it from SQLite;
 * in Azure it is built from the app settings (Cosmos DB, Service Bus, ...). functions/ only ever calls
 * `getServices()`, so the same code runs on both.
 */
export interface Services {
  stores: Stores;
  apiKeys: ApiKeyStore;
  queue: QueuePort;
  clock: Clock;
  /** one invoker per target id, sharing its circuit breaker and rate limiter across all workers */
  invokerFor(target: TargetSystem, catalog?: ToolCatalog): TargetInvoker;
  /** the stage-3 provider of a run (cassettes are loaded once per run) */
  apiProviderFor(run: Run, catalog: ToolCatalog | undefined): Promise<ApiProvider>;
  /** the stage-4 judge of a run */
  judgeFor(run: Run): Judge;
  /** the embedder of the embedding_cosine reference metric, when one is configured */
  referenceEmbedder?(): Embedder | undefined;
  /** the pairwise judge of run comparisons (OpenAI / Azure OpenAI settings; throws JudgeConfigurationError without them) */
  pairwiseJudge?(model?: string): PairwiseJudgeLike;
  /** base directory for relative paths in settings (replay outputs, cassettes) */
  baseDir: string;
  workerId: string;
  /** where the platform answers (for status URLs); undefined when unknown */
  publicUrl?: string;
}

let current: Promise<Services> | undefined;
let resolveCurrent: ((s: Services) => void) | undefined;

/**
 * Makes services available to functions. The embedded host calls it once its database is open; functions
 * invoked before that (a timer with runOnStartup, a message left from before a restart) wait for it.
 */
export function provideServices(services: Services): void {
  hostManaged = true;
  if (resolveCurrent) {
    resolveCurrent(services);
    resolveCurrent = undefined;
  } else {
    current = Promise.resolve(services);
  }
}

/** Set once a host manages services (provideServices / resetServices): then getServices never composes Azure. */
let hostManaged = false;

/**
 * The app's services; waits until they are provided. In Azure (EVALP_BACKEND=azure and no embedded host in this
 * process) the first call composes them from the app settings (lib/app/azure.ts, loaded only then) and every later
 * call shares them; a failed composition (AppSettingsError naming each bad setting, or Azure unreachable) fails
 * that invocation and the next call tries again.
 */
export function getServices(): Promise<Services> {
  if (!current) {
    if (!hostManaged && process.env.EVALP_BACKEND?.trim() === 'azure') {
      const composing: Promise<Services> = import('./azure.js').then((azure) => azure.createAzureServices());
      current = composing;
      composing.catch(() => {
        if (current === composing) current = undefined;
      });
      return composing;
    }
    current = new Promise<Services>((resolve) => {
      resolveCurrent = resolve;
    });
  }
  return current;
}

/** Forgets the provided services (tests that start several hosts in one process). */
export function resetServices(): void {
  hostManaged = true;
  current = undefined;
  resolveCurrent = undefined;
}
