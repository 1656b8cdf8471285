import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InvocationContext } from '@azure/functions';
import { captureRegistrations } from '../capture.js';
import { openHostDatabase, type HostDatabase } from '../database.js';
import type { FunctionRegistration, InvokeFunction } from '../registration.js';
import { TaskHub, type TaskHubOptions } from './taskHub.js';

type ContextClass = new (init: { functionName: string; triggerMetadata?: Record<string, unknown> }) => InvocationContext;
const { InvocationContext: Context } = createRequire(import.meta.url)('@azure/functions') as { InvocationContext: ContextClass };

/** The trivial InvokeFunction engines use in their own tests (the host's real one adds bindings). */
export const simpleInvoke: InvokeFunction = (registration, input, options) =>
  Promise.resolve(
    registration.callback(input, new Context({ functionName: registration.name, triggerMetadata: options?.triggerMetadata })),
  );

/** Registrations of the test app (captured through the host's fake @azure/functions-core). */
export function loadDurableApp(): Promise<FunctionRegistration[]> {
  return captureRegistrations(() => import('./__fixtures__/durableApp.js'));
}

export interface HubEnv {
  hub: TaskHub;
  db: HostDatabase;
  dir: string;
  /** Stops the hub (if running) and closes the database; removes the directory unless keepDir. */
  close(options?: { keepDir?: boolean }): Promise<void>;
}

export function createHubEnv(registrations: FunctionRegistration[], options: TaskHubOptions = {}, dir?: string): HubEnv {
  const dataDir = dir ?? mkdtempSync(join(tmpdir(), 'evalp-durable-'));
  const db = openHostDatabase(dataDir);
  const hub = new TaskHub(db, registrations, simpleInvoke, { pollIntervalMs: 50, ...options });
  return {
    hub,
    db,
    dir: dataDir,
    async close({ keepDir = false } = {}) {
      await hub.stop({ timeoutInMs: 0 });
      db.close();
      if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it returns a value other than undefined/false, or fails after timeoutInMs. */
export async function eventually<T>(check: () => T | undefined | false, timeoutInMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutInMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutInMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
