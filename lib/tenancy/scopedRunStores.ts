import type { CaseOutcome, Run, RunStats, RunStatus, Scorecard } from '../domain/index.js';
import {
  NotFoundError,
  type IterateOutcomesOptions,
  type Page,
  type PageOptions,
  type RunFilter,
  type RunStatsStore,
  type RunStore,
  type ScorecardFilter,
  type ScorecardStore,
  type WithEtag,
} from '../ports/index.js';
import type { Ownership } from './ownership.js';

/** Runs seen by one organization: created with it, another organization's run is unknown (undefined / NotFoundError). */
export class ScopedRunStore implements RunStore {
  constructor(
    private readonly inner: RunStore,
    private readonly scope: Ownership,
  ) {}

  createRun(run: Run): Promise<WithEtag<Run>> {
    return this.scope.written(this.inner.createRun(this.scope.stamp(run)));
  }

  async getRun(id: string): Promise<WithEtag<Run> | undefined> {
    return this.scope.visible(await this.inner.getRun(id));
  }

  /** whether the run exists and is this organization's (the check of every run-keyed store below) */
  async ownsRun(id: string): Promise<boolean> {
    return (await this.getRun(id)) !== undefined;
  }

  async updateRun(
    id: string,
    patch: Partial<Omit<Run, 'id'>>,
    options?: { from?: readonly RunStatus[] },
  ): Promise<WithEtag<Run> | undefined> {
    if (!(await this.ownsRun(id))) throw new NotFoundError('run', id);
    const { organization: _ignored, ...rest } = patch;
    const updated = await this.inner.updateRun(id, rest, options);
    return updated && this.scope.written(Promise.resolve(updated));
  }

  async listRuns(filter: RunFilter = {}, options?: PageOptions): Promise<Page<WithEtag<Run>>> {
    const page = await this.inner.listRuns({ ...filter, organization: this.scope.organization }, options);
    return { ...page, items: this.scope.visibleOnly(page.items) };
  }

  async putShards(runId: string, shards: readonly (readonly string[])[]): Promise<void> {
    if (!(await this.ownsRun(runId))) throw new NotFoundError('run', runId);
    return this.inner.putShards(runId, shards);
  }

  async getShard(runId: string, index: number): Promise<string[] | undefined> {
    return (await this.ownsRun(runId)) ? this.inner.getShard(runId, index) : undefined;
  }

  async deleteShards(runId: string): Promise<void> {
    if (await this.ownsRun(runId)) await this.inner.deleteShards(runId);
  }

  async deleteRun(id: string): Promise<void> {
    if (await this.ownsRun(id)) await this.inner.deleteRun(id);
  }
}

const emptyPage = <T>(options: PageOptions = {}): Page<T> => ({
  items: [],
  total: 0,
  has_more: false,
  limit: options.limit ?? 50,
  offset: options.offset ?? 0,
});

/** Scorecards of this organization's runs only: another organization's run reads as one with no scorecards. */
export class ScopedScorecardStore implements ScorecardStore {
  constructor(
    private readonly inner: ScorecardStore,
    private readonly runs: ScopedRunStore,
  ) {}

  async upsertScorecards(cards: readonly Scorecard[]): Promise<{ written: number; unchanged: number }> {
    for (const runId of new Set(cards.map((c) => c.run_id))) if (!(await this.runs.ownsRun(runId))) throw new NotFoundError('run', runId);
    return this.inner.upsertScorecards(cards);
  }

  async getScorecard(runId: string, testCaseId: string): Promise<Scorecard | undefined> {
    return (await this.runs.ownsRun(runId)) ? this.inner.getScorecard(runId, testCaseId) : undefined;
  }

  async listScorecards(runId: string, filter?: ScorecardFilter, options?: PageOptions): Promise<Page<Scorecard>> {
    return (await this.runs.ownsRun(runId)) ? this.inner.listScorecards(runId, filter, options) : emptyPage(options);
  }

  async *iterateScorecards(runId: string): AsyncIterable<Scorecard> {
    if (await this.runs.ownsRun(runId)) yield* this.inner.iterateScorecards(runId);
  }

  async countScorecards(runId: string, filter?: ScorecardFilter): Promise<number> {
    return (await this.runs.ownsRun(runId)) ? this.inner.countScorecards(runId, filter) : 0;
  }

  async deleteScorecards(runId: string, options?: { limit?: number }): Promise<number> {
    return (await this.runs.ownsRun(runId)) ? this.inner.deleteScorecards(runId, options) : 0;
  }
}

/** Statistics of this organization's runs only (the change-feed fold itself runs unscoped, in the workers). */
export class ScopedRunStatsStore implements RunStatsStore {
  constructor(
    private readonly inner: RunStatsStore,
    private readonly runs: ScopedRunStore,
  ) {}

  async applyOutcomes(outcomes: readonly CaseOutcome[], totals: ReadonlyMap<string, number>): Promise<RunStats[]> {
    for (const runId of new Set(outcomes.map((o) => o.run_id)))
      if (!(await this.runs.ownsRun(runId))) throw new NotFoundError('run', runId);
    return this.inner.applyOutcomes(outcomes, totals);
  }

  async getRunStats(runId: string): Promise<RunStats | undefined> {
    return (await this.runs.ownsRun(runId)) ? this.inner.getRunStats(runId) : undefined;
  }

  async recomputeRunStats(runId: string, total: number): Promise<RunStats> {
    if (!(await this.runs.ownsRun(runId))) throw new NotFoundError('run', runId);
    return this.inner.recomputeRunStats(runId, total);
  }

  async *iterateOutcomes(runId: string, options?: IterateOutcomesOptions): AsyncIterable<CaseOutcome> {
    if (await this.runs.ownsRun(runId)) yield* this.inner.iterateOutcomes(runId, options);
  }

  async deleteOutcomes(runId: string, options?: { limit?: number }): Promise<number> {
    return (await this.runs.ownsRun(runId)) ? this.inner.deleteOutcomes(runId, options) : 0;
  }

  async deleteRunStats(runId: string): Promise<void> {
    if (await this.runs.ownsRun(runId)) await this.inner.deleteRunStats(runId);
  }
}
