/** Where the task hub reports problems; structurally compatible with the host's HostLogger. */
export interface HubLogger {
  log(level: 'debug' | 'information' | 'warning' | 'error', message: string, properties?: Record<string, unknown>): void;
}

export const silentHubLogger: HubLogger = { log: () => undefined };
