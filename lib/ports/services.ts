import type { MailPort } from './mailer.js';
import type { Run, TargetSystem, ToolCatalog } from '../domain/index.js';
import type { OutboundGuard } from '../outbound/index.js';
import type { ApiKeyStore } from './apiKeyStore.js';
import type { AnalyticsSink } from './analyticsSink.js';
import type { ApiProvider } from './apiProvider.js';
import type { CircuitSnapshot } from './circuit.js';
import type { Clock } from './clock.js';
import type { Embedder } from './embedder.js';
import type { DeadLetterPort } from './deadLetters.js';
import type { Judge } from './judge.js';
import type { PairwiseJudgePort } from './pairwiseJudge.js';
import type { QueuePort } from './queuePort.js';
import type { RunQueuesPort } from './runQueues.js';
import type { Stores } from './stores.js';
import type { TargetInvoker } from './target.js';

/**
 * Everything the function app needs at run time, behind ports. The embedded host provides it from SQLite;
 * in Azure it is built from the app settings (Cosmos DB, Service Bus, ...). functions/ only ever calls
 * `getServices()`, so the same code runs on both.
 */
export interface Services {
  stores: Stores;
  apiKeys: ApiKeyStore;
  queue: QueuePort;
  /** per-run queue figures (embedded SQLite queues; peeked Service Bus queues in Azure) and dead-lettering of poison (embedded only: Azure workers log it) */
  runQueues?: RunQueuesPort;
  /** the stage queues' dead letters (list, replay): SQLite queues embedded, Service Bus in Azure */
  deadLetters: DeadLetterPort;
  clock: Clock;
  /**
   * one invoker per target id, sharing its circuit breaker and rate limiter across all workers; `apiProvider` executes
   * the tool calls of a target with a tool loop (the run's stage-3 provider)
   */
  invokerFor(target: TargetSystem, catalog?: ToolCatalog, apiProvider?: ApiProvider): TargetInvoker;
  /** builds the target's invoker now: throws TargetConfigurationError naming the setting when it cannot work */
  /** the circuit breaker state of a target in this process (undefined before its first call) */
  circuitOf?(targetId: string): CircuitSnapshot | undefined;
  checkTarget(target: TargetSystem, catalog?: ToolCatalog, apiProvider?: ApiProvider): Promise<void>;
  /** the stage-3 provider of a run (cassettes are loaded once per run; `mcp` runs the calls on the target's MCP servers) */
  apiProviderFor(run: Run, catalog: ToolCatalog | undefined, target?: TargetSystem): Promise<ApiProvider>;
  /** the stage-4 judge of a run */
  judgeFor(run: Run): Judge;
  /**
   * the pairwise judge of baseline-vs-enhanced comparisons (an OpenAI-compatible model from the judge settings);
   * throws JudgeConfigurationError naming missing settings
   */
  pairwiseJudge(model?: string): PairwiseJudgePort;
  /** the embedder of the embedding-cosine reference metric (undefined when none is configured: the metric is skipped with the reason) */
  referenceEmbedder?(): Embedder | undefined;
  /** base directory for relative paths in settings (replay outputs, cassettes) */
  baseDir: string;
  workerId: string;
  /** where the platform answers (for status URLs); undefined when unknown */
  publicUrl?: string;
  /** the platform's version (package.json), for GET /api/health */
  version?: string;
  /** the outbound URL policy (lib/outbound): its fetch for every outbound call, its check where URLs are configured */
  outbound?: OutboundGuard;
  /** where completed runs' analytics tables go (a folder embedded, Blob Storage / OneLake in Azure); absent: export off */
  analyticsSink?: AnalyticsSink;
  /** e-mail for alerts and finished runs (SMTP embedded, ACS in Azure); undefined when no sender is configured */
  mailer?: MailPort;
}
