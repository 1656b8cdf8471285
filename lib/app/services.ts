import type { Services } from '../ports/index.js';

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
