import type { Run, RunStatus } from '../domain/index.js';
import type { OrganizationScope } from './organizationScope.js';
import type { Page, PageOptions, WithEtag } from './paging.js';

export interface RunFilter extends OrganizationScope {
  client_id?: string;
  suite_id?: string;
  target_id?: string;
  status?: RunStatus;
  /** ISO date-times bounding created_at */
  created_after?: string;
  created_before?: string;
}

/** Runs, and the frozen case list of each run split into shards (kept out of orchestration history). */
export interface RunStore {
  createRun(run: Run): Promise<WithEtag<Run>>;
  getRun(id: string): Promise<WithEtag<Run> | undefined>;
  /**
   * Atomically applies `patch` when the run's status is one of `from` (or always, when `from` is omitted).
   * Returns the updated run, or undefined when the status did not allow it (e.g. cancelling a completed run).
   */
  updateRun(id: string, patch: Partial<Omit<Run, 'id'>>, options?: { from?: readonly RunStatus[] }): Promise<WithEtag<Run> | undefined>;
  listRuns(filter?: RunFilter, options?: PageOptions): Promise<Page<WithEtag<Run>>>;
  /** stores the shards (case-id lists) of a run; idempotent (replaces) */
  putShards(runId: string, shards: readonly (readonly string[])[]): Promise<void>;
  getShard(runId: string, index: number): Promise<string[] | undefined>;
  /** deletes a run's shards (its frozen case lists: a run artifact retention removes); idempotent */
  deleteShards(runId: string): Promise<void>;
  /** deletes a run and its shards; idempotent (nothing for an unknown run) */
  deleteRun(id: string): Promise<void>;
}
