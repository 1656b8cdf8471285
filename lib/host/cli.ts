import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { startHost, type EmbeddedHost } from './host.js';
import { createConsoleLogger, type HostLogLevel } from './logger.js';
import { installSignalHandlers } from './signals.js';

export interface HostCliOptions {
  entry: string;
  dataDir: string;
  port: number;
  hostname: string;
  pollIntervalMs?: number;
  lockDurationMs?: number;
  maxDeliveryCount?: number;
  functionKey?: string;
  logLevel: HostLogLevel;
}

const LOG_LEVELS: HostLogLevel[] = ['trace', 'debug', 'information', 'warning', 'error', 'critical'];

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
}

/** Parses the host CLI arguments (user arguments only, without node and the script path). */
export function parseHostCliArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  writeErr: (text: string) => void = (text) => void process.stderr.write(text),
): HostCliOptions {
  const program = new Command('evalp-host')
    .description('Run a function app on the embedded host')
    .requiredOption('--entry <module>', 'app entry module (path or URL)')
    .option('--data-dir <dir>', 'state directory (default: EVALP_DATA_DIR)', env.EVALP_DATA_DIR)
    .option('--port <n>', 'HTTP port, 0 = any free port', wholeNumber, Number(env.EVALP_PORT ?? 7071))
    .option('--hostname <host>', 'interface to listen on', '127.0.0.1')
    .option('--poll-interval-ms <n>', 'idle poll interval of queue and change-feed triggers', wholeNumber)
    .option('--lock-duration-ms <n>', 'queue peek-lock duration', wholeNumber)
    .option('--max-delivery-count <n>', 'deliveries before dead-lettering', wholeNumber)
    .option('--function-key <key>', 'key for authLevel function/admin (default: EVALP_FUNCTION_KEY or random)')
    .option('--log-level <level>', `one of ${LOG_LEVELS.join(', ')}`, 'information')
    .exitOverride()
    .configureOutput({ writeOut: writeErr, writeErr });
  program.parse([...argv], { from: 'user' });
  const opts = program.opts<Omit<HostCliOptions, 'dataDir'> & { dataDir?: string }>();
  if (!opts.dataDir) throw new Error('--data-dir or EVALP_DATA_DIR is required');
  if (!LOG_LEVELS.includes(opts.logLevel)) throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  return { ...opts, dataDir: opts.dataDir };
}

function entryUrl(entry: string): string {
  if (/^(file|data|node):/.test(entry)) return entry;
  return pathToFileURL(isAbsolute(entry) ? entry : resolve(process.cwd(), entry)).href;
}

/**
 * Starts the host for an entry module, prints one JSON line `{"event":"ready","url",...}` on stdout when it
 * serves, installs SIGTERM/SIGINT handlers (graceful stop, then `{"event":"stopped"}` and exit 0).
 */
export async function runHostCli(argv: readonly string[]): Promise<EmbeddedHost> {
  const options = parseHostCliArgs(argv);
  const logger = createConsoleLogger(options.logLevel);
  const url = entryUrl(options.entry);
  const host = await startHost({
    entry: () => import(url),
    dataDir: options.dataDir,
    port: options.port,
    hostname: options.hostname,
    logger,
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    ...(options.functionKey === undefined ? {} : { functionKey: options.functionKey }),
    queueEngine: {
      ...(options.lockDurationMs === undefined ? {} : { lockDurationMs: options.lockDurationMs }),
      ...(options.maxDeliveryCount === undefined ? {} : { maxDeliveryCount: options.maxDeliveryCount }),
    },
  });
  installSignalHandlers(
    { stop: (o) => host.stop(o).then(() => void process.stdout.write(`${JSON.stringify({ event: 'stopped' })}\n`)) },
    { logger },
  );
  const ready = {
    event: 'ready',
    url: host.url,
    pid: process.pid,
    dataDir: options.dataDir,
    functions: host.registrations.map((r) => r.name),
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  return host;
}
