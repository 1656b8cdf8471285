/** Log levels as the Functions runtime names them (the `LogLevel` of @azure/functions). */
export type HostLogLevel = 'trace' | 'debug' | 'information' | 'warning' | 'error' | 'critical';

/** Where the host and the functions' `context.log` write. Structured: a message plus optional properties. */
export interface HostLogger {
  log(level: HostLogLevel, message: string, properties?: Record<string, unknown>): void;
}

const LEVEL_RANK = {
  trace: 0,
  debug: 1,
  information: 2,
  warning: 3,
  error: 4,
  critical: 5,
} as const satisfies Record<HostLogLevel, number>;

/** Discards everything (the default in tests). */
export const silentLogger: HostLogger = { log: () => undefined };

/**
 * One JSON line per entry on stderr (stdout stays free for machine-readable events such as the CLI's
 * `ready` line), dropping entries below `minLevel`.
 */
export function createConsoleLogger(minLevel: HostLogLevel = 'information'): HostLogger {
  const min = LEVEL_RANK[minLevel];
  return {
    log(level, message, properties) {
      if (LEVEL_RANK[level] < min) return;
      process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...properties })}\n`);
    },
  };
}

/** Maps any string (e.g. what @azure/functions passes to a log handler) onto a HostLogLevel. */
export function toHostLogLevel(level: unknown): HostLogLevel {
  return typeof level === 'string' && level in LEVEL_RANK ? (level as HostLogLevel) : 'information';
}
