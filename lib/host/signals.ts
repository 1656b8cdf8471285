import { silentLogger, type HostLogger } from './logger.js';

export interface SignalHandlerOptions {
  /** Passed to stop(); default 10 s (the whole stop's budget). */
  timeoutInMs?: number;
  logger?: HostLogger;
  /** Default process.exit. */
  exit?: (code: number) => void;
  /** Default ['SIGTERM', 'SIGINT']. */
  signals?: NodeJS.Signals[];
}

/**
 * Stops the host gracefully on SIGTERM or SIGINT, then exits 0 (1 if stopping failed); a second signal exits at
 * once with 130. Returns a function that removes the handlers.
 */
export function installSignalHandlers(
  host: { stop(options?: { timeoutInMs?: number }): Promise<void> },
  options: SignalHandlerOptions = {},
): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const logger = options.logger ?? silentLogger;
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      logger.log('warning', `Received ${signal} again; exiting without waiting.`);
      exit(130);
      return;
    }
    signalled = true;
    logger.log('information', `Received ${signal}; stopping the host.`);
    host.stop({ timeoutInMs: options.timeoutInMs ?? 10_000 }).then(
      () => exit(0),
      (error: unknown) => {
        logger.log('error', 'The host did not stop cleanly.', { error: String(error) });
        exit(1);
      },
    );
  };
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
