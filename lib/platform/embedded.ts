import { randomBytes } from 'node:crypto';
import { startHost, type EmbeddedHost } from '../host/index.js';
import {
  createEmbeddedStores,
  EmbeddedApiKeyStore,
  EmbeddedDeadLetters,
  EmbeddedQueuePort,
  EmbeddedRunQueues,
} from '../adapters/embedded/index.js';
import { embeddedAnalyticsSink } from './embeddedAnalyticsSink.js';
import { type Services, systemClock } from '../ports/index.js';
import { QUEUES } from '../runs/index.js';
import { TargetRegistry } from '../targets/index.js';
import { EnvSecretResolver } from '../adapters/shared/index.js';
import {
  breakerSettingsFromEnv,
  hostJsonRoutePrefix,
  platformVersion,
  provideServices,
  removeServerMarker,
  resetServices,
  runServices,
  writeServerMarker,
  mailerFromEnv,
} from '../app/index.js';
import { apiSecuritySettingsFromEnv, configureApiSecurity } from '../api/index.js';
import { azureOpenAITokenProvider } from '../adapters/azure/index.js';
import { registerQueueDepthSource, startTelemetry } from '../telemetry/index.js';
import { createOutboundGuard, outboundPolicyFromEnv } from '../outbound/index.js';

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
  /** trigger settings per queue over the platform's own (e.g. smaller stage batches, so priorities act sooner) */
  queues?: Parameters<typeof startHost>[0]['queues'];
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
    // as host.json says ("": the dashboard at `/`, the API routes under `api/`), like the Functions runtime
    routePrefix: hostJsonRoutePrefix(),
    ...(options.hostname ? { hostname: options.hostname } : {}),
    env,
    ...(options.logger ? { logger: options.logger } : {}),
    queues: {
      // replay and recorded stages are microseconds per case: big batches; live targets are bounded by their rate limiter
      [QUEUES.evaluate]: { maxMessageBatchSize: 500, maxConcurrentBatches: 2, lockDurationMs: 5 * 60_000 },
      [QUEUES.execute]: { maxMessageBatchSize: 500, maxConcurrentBatches: 2, lockDurationMs: 5 * 60_000 },
      [QUEUES.judge]: { maxMessageBatchSize: 100, maxConcurrentBatches: 2, lockDurationMs: 5 * 60_000 },
      ...options.queues,
    },
  });
  const secrets = new EnvSecretResolver(env);
  // Entra ID for Azure OpenAI targets and judges without a key (DefaultAzureCredential: `az login`), loaded on first use
  const azureADTokenProvider = azureOpenAITokenProvider();
  // outbound calls may reach loopback agents (EVALP_OUTBOUND_ALLOW, default "loopback") but never this host's own port
  const outbound = createOutboundGuard(outboundPolicyFromEnv(env, { backend: 'embedded', selfPorts: [Number(new URL(host.url).port)] }));
  const targets = new TargetRegistry({
    secrets,
    baseDir,
    azureADTokenProvider,
    fetch: outbound.fetch,
    breaker: breakerSettingsFromEnv(env),
  });
  const stores = createEmbeddedStores(host.db, host.changeLog);
  // completed runs as Parquet analytics tables (docs/analytics-export.md), unless EVALP_ANALYTICS_EXPORT=off
  const analyticsSink = embeddedAnalyticsSink(env, options.dataDir, baseDir);
  const mailer = mailerFromEnv(env);
  const services: Services = {
    stores,
    apiKeys: new EmbeddedApiKeyStore(host.db),
    queue: new EmbeddedQueuePort(host.queues),
    deadLetters: new EmbeddedDeadLetters(host.queues),
    runQueues: new EmbeddedRunQueues(host.queues),
    clock: systemClock,
    ...runServices({ targets, baseDir, env, azureADTokenProvider, fetch: outbound.fetch }),
    baseDir,
    workerId: `embedded-${process.pid}-${randomBytes(3).toString('hex')}`,
    publicUrl: host.url,
    version: platformVersion(),
    outbound,
    ...(analyticsSink ? { analyticsSink } : {}),
    // e-mail of alerts and finished runs over SMTP (EVALP_EMAIL_FROM + EVALP_SMTP_HOST, or evalplatform.config.yaml)
    ...(mailer ? { mailer } : {}),
  };
  // API keys, Entra ID and rate limits from the platform's own settings; a malformed setting fails the start here
  configureApiSecurity(services, apiSecuritySettingsFromEnv(env));
  provideServices(services);
  // `evalp keys` refuses to write the database of a running server (its keys belong to the API then)
  writeServerMarker(options.dataDir, { pid: process.pid, url: host.url, started_at: new Date().toISOString() });
  const unregisterDepth = registerQueueDepthSource(() =>
    Object.fromEntries(Object.values(QUEUES).map((q) => [q, host.queues.counts(q).active])),
  );
  return {
    host,
    services,
    url: host.url,
    stop: async (o) => {
      unregisterDepth();
      await host.stop(o);
      removeServerMarker(options.dataDir);
      await targets.close(); // MCP servers this process spawned
      await telemetry.forceFlush();
      resetServices();
    },
  };
}
