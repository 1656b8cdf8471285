import { randomBytes } from 'node:crypto';
import { resolveAppSettings, validateBindings } from './bindings.js';
import type { AppSetup } from './appSetup.js';
import { captureApp } from './capture.js';
import { ChangeFeedTriggerHost, ChangeLog, DocumentContainers } from './changefeed/index.js';
import { openHostDatabase, type HostDatabase } from './database.js';
import { createDurableHttpApi, durableClientInput, TaskHub, type DurableHttpApi } from './durable/index.js';
import type { HostKeys } from './http/auth.js';
import { HttpTriggerServer } from './http/server.js';
import { createInvoker } from './invoke.js';
import { silentLogger, type HostLogger } from './logger.js';
import type { FunctionRegistration, InvokeFunction } from './registration.js';
import { QueueTriggerHost, SqliteQueueEngine, type QueueEngineOptions, type QueueTriggerSettings } from './servicebus/index.js';
import { TimerTriggerHost } from './timer/timerHost.js';

/** The whole graceful stop's budget unless the caller gives one. */
export const DEFAULT_STOP_TIMEOUT_MS = 10_000;

/** Where the durable client's HTTP calls go (as in the Functions host). */
export const DURABLE_WEBHOOK_PREFIX = '/runtime/webhooks/durabletask';

export interface StartHostOptions {
  /** Imports the function app entry (e.g. `() => import('./functions/index.js')`). */
  entry: () => Promise<unknown>;
  /** Directory for all state (`evalplatform.db`); the CLI reads it from EVALP_DATA_DIR. */
  dataDir: string;
  /** Default 7071; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  hostname?: string;
  /** host.json extensions.http.routePrefix; default 'api'. */
  routePrefix?: string;
  /** Per-queue trigger settings keyed by queue name (host.json extensions.serviceBus per queue). */
  queues?: Record<string, QueueTriggerSettings>;
  /** Trigger settings for every queue (maxConcurrentCalls 16, maxMessageBatchSize 1000 unless set). */
  queueDefaults?: QueueTriggerSettings;
  /** Queue engine settings: lockDurationMs (60 s), maxDeliveryCount (10), duplicateDetectionWindowMs (10 min). */
  queueEngine?: Omit<QueueEngineOptions, 'now'>;
  /** How often idle queue and change-feed triggers look for new work (default 50 ms; Azure's feedPollDelay is 5 s). */
  pollIntervalMs?: number;
  /** Largest request body (default 10 MiB): larger gets 413. */
  maxRequestBodyBytes?: number;
  /** Request timeout (default 230 s): later gets 504. */
  requestTimeoutInMs?: number;
  /** Key for authLevel 'function' (default: EVALP_FUNCTION_KEY, else random per start; see `keys`). */
  functionKey?: string;
  /** Key for authLevel 'admin' (also accepted for 'function'); default: EVALP_ADMIN_KEY, else the function key. */
  adminKey?: string;
  /**
   * The durable-task system key guarding `/runtime/webhooks/durabletask` (the admin key opens it too); default:
   * EVALP_DURABLE_TASK_KEY, else random per start. The app's own durable client gets it inside its webhook URLs.
   */
  durableTaskKey?: string;
  /** IANA zone for NCRONTAB schedules; default 'UTC'. */
  timeZone?: string;
  /** Durable task hub name; default 'EvalPlatformHub'. */
  taskHubName?: string;
  maxConcurrentActivities?: number;
  /** Source of `%AppSetting%` values in bindings; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** 'throw' (default) fails start on a trigger kind the host cannot serve; 'skip' logs and ignores it. */
  onUnsupportedTrigger?: 'throw' | 'skip';
  logger?: HostLogger;
}

export interface EmbeddedHost {
  /** Base URL, e.g. http://127.0.0.1:7071 (functions under `${url}/api/...`). */
  readonly url: string;
  readonly dataDir: string;
  readonly keys: HostKeys;
  readonly registrations: readonly FunctionRegistration[];
  /**
   * The app's `app.setup(...)` options. The host streams response bodies whether or not `enableHttpStream` is set
   * (Azure buffers them without it) and buffers request bodies (Azure streams them with it); see README.
   */
  readonly setup: AppSetup;
  readonly db: HostDatabase;
  readonly queues: SqliteQueueEngine;
  readonly changeLog: ChangeLog;
  readonly containers: DocumentContainers;
  readonly taskHub: TaskHub;
  /** The host's InvokeFunction (for tests and tools that call a function directly). */
  readonly invoke: InvokeFunction;
  /** Graceful shutdown; idempotent. See README "Lifecycle". */
  stop(options?: { timeoutInMs?: number }): Promise<void>;
}

function resolveKeys(options: StartHostOptions, env: Readonly<Record<string, string | undefined>>): Required<HostKeys> {
  const fn = options.functionKey ?? env.EVALP_FUNCTION_KEY ?? randomBytes(24).toString('base64url');
  const durableTask = options.durableTaskKey ?? env.EVALP_DURABLE_TASK_KEY ?? randomBytes(24).toString('base64url');
  return { function: fn, admin: options.adminKey ?? env.EVALP_ADMIN_KEY ?? fn, durableTask };
}

async function capture(
  options: StartHostOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ registrations: FunctionRegistration[]; setup: AppSetup }> {
  const captured = await captureApp(options.entry, {
    onUnsupportedTrigger: options.onUnsupportedTrigger ?? 'throw',
    logger: options.logger ?? silentLogger,
  });
  const registrations = captured.registrations.map((registration) => resolveAppSettings(registration, env));
  const problems = validateBindings(registrations);
  if (problems.length > 0) throw new Error(`The embedded host cannot serve this app: ${problems.join('; ')}.`);
  return { registrations, setup: captured.setup };
}

/**
 * Starts the embedded host: captures the app's registrations, opens `${dataDir}/evalplatform.db`, wires the
 * queue, change-feed, timer and durable engines through one InvokeFunction, serves HTTP triggers and the durable
 * client's webhooks, then starts every trigger. Configuration errors throw (and release what was opened).
 */
export async function startHost(options: StartHostOptions): Promise<EmbeddedHost> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? silentLogger;
  const { registrations, setup } = await capture(options, env);
  const keys = resolveKeys(options, env);
  const db = openHostDatabase(options.dataDir);
  const started: Array<{ stop(options?: { timeoutInMs?: number }): Promise<void> | void }> = [];
  try {
    const queues = new SqliteQueueEngine(db, options.queueEngine ?? {});
    const changeLog = new ChangeLog(db);
    const containers = new DocumentContainers(db, changeLog);
    let durableInput: unknown;
    const invoke = createInvoker({
      queues,
      containers,
      durableClientInput: () => durableInput,
      transaction: (write) => db.transaction(write)(),
      logger,
    });
    const taskHubName = options.taskHubName ?? 'EvalPlatformHub';
    const taskHub = new TaskHub(db, registrations, invoke, {
      taskHubName,
      logger,
      ...(options.maxConcurrentActivities === undefined ? {} : { maxConcurrentActivities: options.maxConcurrentActivities }),
    });
    // built once the listening URL is known (management URLs and Location headers point at it)
    let durableApi: DurableHttpApi | undefined;
    const pollIntervalMs = options.pollIntervalMs ?? 50;
    const queueHost = new QueueTriggerHost(queues, invoke, {
      queues: options.queues ?? {},
      defaults: options.queueDefaults ?? {},
      pollIntervalMs,
      logger,
    });
    const feedHost = new ChangeFeedTriggerHost(db, changeLog, invoke, { pollIntervalMs, logger });
    const timerHost = new TimerTriggerHost(db, invoke, { timeZone: options.timeZone ?? 'UTC', logger });
    for (const registration of registrations) {
      if (registration.kind === 'serviceBusTrigger') queueHost.add(registration);
      else if (registration.kind === 'cosmosDBTrigger') feedHost.add(registration);
      else if (registration.kind === 'timerTrigger') timerHost.add(registration);
    }
    const http = new HttpTriggerServer(registrations, invoke, {
      keys,
      port: options.port ?? 7071,
      hostname: options.hostname ?? '127.0.0.1',
      logger,
      mounts: [
        {
          prefix: DURABLE_WEBHOOK_PREFIX,
          key: keys.durableTask,
          handle: (request) => (durableApi ? durableApi(request) : Promise.resolve({ status: 503, body: 'The task hub is starting.' })),
        },
      ],
      ...(options.routePrefix === undefined ? {} : { routePrefix: options.routePrefix }),
      ...(options.maxRequestBodyBytes === undefined ? {} : { maxRequestBodyBytes: options.maxRequestBodyBytes }),
      ...(options.requestTimeoutInMs === undefined ? {} : { requestTimeoutInMs: options.requestTimeoutInMs }),
    });
    const url = await http.start();
    started.push(http);
    const selfUrl = url.replace(/\/\/(0\.0\.0\.0|\[::\])(?=:)/, '//127.0.0.1');
    durableApi = createDurableHttpApi(taskHub, { baseUrl: selfUrl, code: keys.durableTask });
    durableInput = durableClientInput(selfUrl, taskHubName, keys.durableTask);

    taskHub.start();
    started.push(taskHub);
    queueHost.start();
    started.push(queueHost);
    feedHost.start();
    started.push(feedHost);
    timerHost.start();
    started.push(timerHost);
    logger.log('information', `Embedded host listening on ${url} with ${registrations.length} function(s).`, { dataDir: options.dataDir });

    let stopping: Promise<void> | undefined;
    const stop = (stopOptions: { timeoutInMs?: number } = {}): Promise<void> => {
      stopping ??= (async () => {
        // ONE budget for the whole stop (default 10 s): each phase gets what is left, so a slow invocation (a target
        // behind its rate limiter) cannot hold the stop for a multiple of it; queue work not finished in time is
        // given back without counting a delivery, and the listener and database are closed regardless
        const deadline = Date.now() + (stopOptions.timeoutInMs ?? DEFAULT_STOP_TIMEOUT_MS);
        const left = (): number => Math.max(0, deadline - Date.now());
        try {
          const timeoutInMs = left();
          await Promise.all([
            http.drain({ timeoutInMs }),
            timerHost.stop({ timeoutInMs }),
            queueHost.stop({ timeoutInMs }),
            feedHost.stop({ timeoutInMs }),
          ]);
          await taskHub.stop({ timeoutInMs: left() });
        } finally {
          await http.stop({ timeoutInMs: left() });
          db.close();
        }
        logger.log('information', 'Embedded host stopped.');
      })();
      return stopping;
    };
    return { url, dataDir: options.dataDir, keys, registrations, setup, db, queues, changeLog, containers, taskHub, invoke, stop };
  } catch (error) {
    for (const part of started.reverse()) {
      try {
        await part.stop({ timeoutInMs: 1000 });
      } catch {
        // already failing: report the original error
      }
    }
    db.close();
    throw error;
  }
}
