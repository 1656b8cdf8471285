import { randomBytes } from 'node:crypto';
import { startHost, type EmbeddedHost } from '../host/index.js';
import { createEmbeddedStores } from '../adapters/embedded/stores.js';
import { EmbeddedApiKeyStore } from '../adapters/embedded/embeddedApiKeyStore.js';
import { EmbeddedQueuePort } from '../adapters/embedded/embeddedQueuePort.js';
import { EmbeddedRunQueues } from '../adapters/embedded/embeddedRunQueues.js';
import { systemClock } from '../ports/index.js';
import { QUEUES } from '../runs/queues.js';
import { EnvSecretResolver, TargetRegistry } from '../targets/index.js';
import { provideServices, resetServices, type Services } from './services.js';
import { runServices } from './runServices.js';
import { breakerSettingsFromEnv } from './breakerSettings.js';
import { apiSecuritySettingsFromEnv, configureApiSecurity } from '../api/index.js';
import { azureOpenAITokenProvider } from '../adapters/azure/openaiAuth.js';
import { registerQueueDepthSource, startTelemetry } from '../telemetry/index.js';

export interface EmbeddedPlatformOptions {
  /** all state (SQLite database, default `./.evalplatform`) */
  dataDir: string;
  /** default 7071; 0 picks a free port */
  port?: number;
  hostname?: string;
  /** base for relative paths in target and run settings (default: the current directory) */
  baseDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
  logger?: Parameters<typeof startHost>[0]['logger'];
}

export interface EmbeddedPlatform {
  host: EmbeddedHost;
  services: Services;
  url: string;
  stop(options?: { timeoutInMs?: number }): Promise<void>;
}

/**
 * The platform on one machine: the embedded host serving functions/ (HTTP API, orchestrator, stage workers,
 * statistics feed, schedules) with every port on the host's SQLite database.
 */
export async function startEmbeddedPlatform(options: EmbeddedPlatformOptions): Promise<EmbeddedPlatform> {
  const env = { COSMOS_DATABASE_NAME: 'evalplatform', ...(options.env ?? process.env) };
  const baseDir = options.baseDir ?? process.cwd();
  resetServices();
  // off unless EVALP_OTEL=console or APPLICATIONINSIGHTS_CONNECTION_STRING is set (once per process)
  const telemetry = await startTelemetry(env);
  const host = await startHost({
    entry: () => import('../../functions/index.js'),
    dataDir: options.dataDir,
    port: options.port ?? 7071,
    ...(options.hostname ? { hostname: options.hostname } : {}),
    env,
    ...(options.logger ? { logger: options.logger } : {}),
    queues: {
      // replay and recorded stages are microseconds per case: big batches; live targets are bounded by their rate limiter
      [QUEUES.evaluate]: { maxMessageBatchSize: 500, maxConcurrentBatches: 2, lockDurationMs: 5 * 60_000 },
      [QUEUES.execute]: { maxMessageBatchSize: 500, maxConcurrentBatches: 2, lockDurationMs: 5 * 60_000 },
      [QUEUES.judge]: { maxMessageBatchSize: 100, maxConcurrentBatches: 2, lockDurationMs: 5 * 60_000 },
    },
  });
  const secrets = new EnvSecretResolver(env);
  // Entra ID for Azure OpenAI targets and judges without a key (DefaultAzureCredential: `az login`), loaded on first use
  const azureADTokenProvider = azureOpenAITokenProvider();
  const targets = new TargetRegistry({ secrets, baseDir, azureADTokenProvider, breaker: breakerSettingsFromEnv(env) });
  const stores = createEmbeddedStores(host.db, host.changeLog);
  const services: Services = {
    stores,
    apiKeys: new EmbeddedApiKeyStore(host.db),
    queue: new EmbeddedQueuePort(host.queues),
    runQueues: new EmbeddedRunQueues(host.queues),
    clock: systemClock,
    ...runServices({ targets, baseDir, env, azureADTokenProvider }),
    baseDir,
    workerId: `embedded-${process.pid}-${randomBytes(3).toString('hex')}`,
    publicUrl: host.url,
  };
  // API keys, Entra ID and rate limits from the platform's own settings; a malformed setting fails the start here
  configureApiSecurity(services, apiSecuritySettingsFromEnv(env));
  provideServices(services);
  const unregisterDepth = registerQueueDepthSource(() => Object.fromEntries(Object.values(QUEUES).map((q) => [q, host.queues.counts(q).active])));
  return {
    host,
    services,
    url: host.url,
    stop: async (o) => {
      unregisterDepth();
      await host.stop(o);
      await telemetry.forceFlush();
      resetServices();
    },
  };
}
