import { createHash } from 'node:crypto';
import { organizationOf, type Run, type TriggerKind } from '../../domain/index.js';
import { ConflictError, type Clock, type Stores } from '../../ports/index.js';
import { scopedStores } from '../../tenancy/index.js';
import { createRun, UnknownReferenceError, type CreateRunRequest } from '../createRun.js';

/** What a trigger check did: runs created and started, pending trigger runs started again, and what it left and why. */
export interface TriggerCheckResult {
  started: string[];
  resumed: string[];
  skipped: Array<{ trigger: TriggerKind; client_id: string; suite_id?: string; reason: string }>;
}

export const emptyTriggerResult = (): TriggerCheckResult => ({ started: [], resumed: [], skipped: [] });

/** A deterministic run id for one firing of a trigger (the same event checked twice gives the same id). */
export function triggerRunId(kind: TriggerKind, clientId: string, suiteId: string, key: string): string {
  const short = { model_version_change: 'model', catalog_version: 'catalog', new_cases: 'cases' }[kind];
  return `trg-${short}-${createHash('sha256').update(`${clientId}\u0000${suiteId}\u0000${key}`).digest('hex').slice(0, 32)}`;
}

/** The trigger that started a run, if one did (`trigger_metadata.trigger`). */
export function triggerOf(run: Pick<Run, 'triggered_by' | 'trigger_metadata'>): TriggerKind | undefined {
  const kind = run.trigger_metadata['trigger'];
  return run.triggered_by === 'trigger' && (kind === 'model_version_change' || kind === 'catalog_version' || kind === 'new_cases')
    ? kind
    : undefined;
}

/**
 * Creates the run of one trigger firing under its deterministic id (a second check of the same event finds it:
 * exactly one run per event) and, when `start` is given, starts its orchestration; a run of that id left `pending`
 * (a crash or failed start) is started again. Without `start` the run stays pending for the trigger timer.
 */
export async function fireTrigger(
  kind: TriggerKind,
  request: CreateRunRequest & { client_id: string; suite_id: string; run_id: string },
  deps: { stores: Stores; clock: Clock },
  start: ((runId: string) => Promise<boolean>) | undefined,
  result: TriggerCheckResult,
): Promise<void> {
  const skip = (reason: string) => result.skipped.push({ trigger: kind, client_id: request.client_id, suite_id: request.suite_id, reason });
  let resuming = false;
  try {
    // triggers fire unscoped (a timer, finalizeRun): the run is the client's organization's, on its suite and target
    const client = await deps.stores.clients.get(request.client_id);
    const stores = scopedStores(deps.stores, organizationOf(client));
    await createRun(
      { ...request, triggered_by: 'trigger', trigger_metadata: { ...request.trigger_metadata, trigger: kind } },
      { ...deps, stores },
    );
  } catch (err) {
    if (err instanceof UnknownReferenceError) return void skip(err.message);
    if (!(err instanceof ConflictError)) throw err;
    const existing = await deps.stores.runs.getRun(request.run_id);
    if (!existing || existing.status !== 'pending') return; // fired already
    resuming = true;
  }
  if (!start) return;
  try {
    const startedNow = await start(request.run_id);
    if (!resuming) result.started.push(request.run_id);
    else if (startedNow) result.resumed.push(request.run_id);
  } catch (err) {
    skip(`could not start ${request.run_id}: ${(err as Error).message}; it stays pending and is started at the next check`);
  }
}
