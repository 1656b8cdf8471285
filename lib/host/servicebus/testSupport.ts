/** Helpers for this folder's and ../changefeed's tests: temp databases, a trivial InvokeFunction, registrations. */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InvocationContext as InvocationContextType } from '@azure/functions';
import { openHostDatabase, type HostDatabase } from '../database.js';
import type { FunctionCallback, FunctionRegistration, InvokeFunction } from '../registration.js';

const { InvocationContext } = createRequire(import.meta.url)('@azure/functions') as {
  InvocationContext: typeof InvocationContextType;
};

/** A real database file in a fresh temp directory; `reopen()` closes and opens it again (a restart). */
export class TempDatabase {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'evalp-g-'));
  db: HostDatabase = openHostDatabase(this.dataDir);

  reopen(): HostDatabase {
    if (this.db.open) this.db.close();
    this.db = openHostDatabase(this.dataDir);
    return this.db;
  }

  dispose(): void {
    if (this.db.open) this.db.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** The trivial InvokeFunction of the host contract: a fresh InvocationContext per call. */
export const testInvoke: InvokeFunction = (registration, input, options) =>
  Promise.resolve(
    registration.callback(input, new InvocationContext({ functionName: registration.name, triggerMetadata: options?.triggerMetadata })),
  );

export function queueRegistration(
  name: string,
  queueName: string,
  callback: FunctionCallback,
  cardinality: 'one' | 'many' = 'one',
): FunctionRegistration {
  const trigger = { type: 'serviceBusTrigger', direction: 'in' as const, name: 'message', connection: 'SB', queueName, cardinality };
  return { name, kind: 'serviceBusTrigger', trigger, metadata: { name, bindings: { message: trigger } }, callback };
}

export function feedRegistration(
  name: string,
  options: Record<string, unknown>,
  callback: FunctionCallback,
  retryOptions?: unknown,
): FunctionRegistration {
  const trigger = {
    type: 'cosmosDBTrigger',
    direction: 'in' as const,
    name: 'documents',
    connection: 'COSMOS',
    databaseName: 'db',
    ...options,
  };
  const metadata = { name, bindings: { documents: trigger }, ...(retryOptions === undefined ? {} : { retryOptions }) };
  return { name, kind: 'cosmosDBTrigger', trigger, metadata, callback };
}

/** Resolves when `condition()` holds, polling every 5 ms; rejects after `timeoutInMs`. */
export async function waitUntil(condition: () => boolean, timeoutInMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutInMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waitUntil: condition not met within ${timeoutInMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
