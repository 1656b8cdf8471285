/**
 * What the app passed to `app.setup(...)` of @azure/functions, as the embedded host sees it. The library keeps these
 * options in module state it does not export and hands them to the worker only through
 * `ProgrammingModel.getCapabilities`, which (with `enableHttpStream`) starts the library's HTTP proxy and waits
 * for the Functions host to proxy requests to it. The embedded host must not call it, so it reads the options from
 * the system log lines `setup()` writes through `@azure/functions-core`'s `log` (checked against
 * @azure/functions 4.16.5 by capture.test.ts).
 */
export interface AppSetup {
  /** `app.setup({ enableHttpStream: true })` was called: Azure streams HTTP requests and responses. */
  enableHttpStream: boolean;
  /** `app.setup({ capabilities })`, values as strings (as the library keeps them). */
  capabilities: Record<string, string>;
}

export function emptyAppSetup(): AppSetup {
  return { enableHttpStream: false, capabilities: {} };
}

const STREAM_ENABLED = 'HTTP streaming enabled.';
const CAPABILITY = /^Capability (.+) set to (.*)\.$/s;

/**
 * Folds one `@azure/functions-core` log call into `setup`; returns true when the line was one of `setup()`'s
 * (the host then keeps it at debug level, so a streaming app starts without a warning).
 */
export function recordSetupLog(setup: AppSetup, category: string, message: string): boolean {
  if (category.toLowerCase() !== 'system') return false;
  if (message === STREAM_ENABLED) {
    setup.enableHttpStream = true;
    return true;
  }
  const capability = CAPABILITY.exec(message);
  if (!capability) return false;
  setup.capabilities[capability[1] as string] = capability[2] as string;
  return true;
}
