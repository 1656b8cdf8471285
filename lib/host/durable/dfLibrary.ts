import { createRequire } from 'node:module';
import type { InvocationContext } from '@azure/functions';

/** The durable-functions version whose replay internals the hub drives (see replay.ts). */
export const SUPPORTED_DURABLE_FUNCTIONS_VERSION = '3.5.0';

/** Receives an orchestrator's `context.log` calls (level as @azure/functions names it, then the arguments). */
export type OrchestratorLogHandler = (level: string, ...args: unknown[]) => void;

type InvocationContextClass = new (init: {
  functionName: string;
  invocationId: string;
  logHandler: OrchestratorLogHandler;
}) => InvocationContext;

let contextClass: InvocationContextClass | undefined;
let checkedVersion: string | undefined;

const load = createRequire(import.meta.url);

/**
 * Throws (a configuration error) unless the installed durable-functions is the pinned version: the hub reads two
 * internals of its replay engine (the executor behind `context.df`), which are not public API.
 */
export function assertSupportedDurableFunctions(): void {
  if (checkedVersion === undefined) {
    const manifest = load('durable-functions/package.json') as { version?: unknown };
    checkedVersion = typeof manifest.version === 'string' ? manifest.version : 'unknown';
  }
  if (checkedVersion !== SUPPORTED_DURABLE_FUNCTIONS_VERSION) {
    throw new Error(
      `The embedded task hub drives durable-functions ${SUPPORTED_DURABLE_FUNCTIONS_VERSION}, but ${checkedVersion} is installed. ` +
        'Pin durable-functions to that version (package.json) or update lib/host/durable/replay.ts for the new internals.',
    );
  }
}

/**
 * A fresh InvocationContext for one orchestrator episode. Loaded through require: in plain Node ESM the class is not
 * a named export of @azure/functions.
 */
export function createInvocationContext(functionName: string, invocationId: string, logHandler: OrchestratorLogHandler): InvocationContext {
  contextClass ??= (load('@azure/functions') as { InvocationContext: InvocationContextClass }).InvocationContext;
  return new contextClass({ functionName, invocationId, logHandler });
}
