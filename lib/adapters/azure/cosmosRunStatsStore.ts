import { BulkOperationType, type Container, type JSONObject } from '@azure/cosmos';
import {
  type CaseOutcome,
  caseOutcomeOf,
  decodeOutcome,
  encodeOutcome,
  parseRunStatsState,
  replacesCountedText,
  type RunStats,
  RunStatsAccumulator,
} from '../../domain/index.js';
import { systemClock, type Clock, type IterateOutcomesOptions, type RunStatsStore, type ScorecardStore } from '../../ports/index.js';
import { deleteLimit } from '../shared/index.js';
import { assertBulk, executeBulk, queryAll, queryByIds, queryPages } from './cosmosBulk.js';
import { shardOf } from './cosmosContainers.js';
import { cosmosStatus, readOrUndefined } from './cosmosErrors.js';
import { toCosmosId } from './cosmosIds.js';

/** The shard value of a run's state document (outcome documents use '0'..'63'). */
const STATS_SHARD = 'stats';
const STATS_ID = 'stats';
/** Outcome documents per page of `iterateOutcomes`. */
const OUTCOME_PAGE_SIZE = 1_000;

/** One run's fold: the state, and the journal of the last batch applied (outcome documents not yet confirmed). */
interface StatsDocument {
  id: typeof STATS_ID;
  run_id: string;
  shard: typeof STATS_SHARD;
  /** RunStatsState as JSON text (parseRunStatsState keeps `__proto__` keys) */
  state: string;
  total: number;
  updated_at: string;
  /** [case id, encodeOutcome text] pairs: counted in `state`, maybe not yet written to their outcome documents */
  journal: Array<[string, string]>;
  _etag?: string;
}

/** The outcome counted for one case. */
interface OutcomeDocument {
  id: string;
  run_id: string;
  shard: string;
  case_id: string;
  outcome: string;
  ttl?: number;
}

export interface CosmosRunStatsStoreOptions {
  clock?: Clock;
  /** per-item `ttl` of outcome documents in seconds (the scorecards' TTL); absent: never expire */
  ttlSeconds?: number;
  /** ETag conflicts retried per run and batch (default 50) */
  maxConflictRetries?: number;
  /** base delay before retrying after an ETag conflict, doubled per conflict with full jitter, capped at 1 s (default 25) */
  retryDelayInMs?: number;
}

const caseCount = (total: number): number => (Number.isFinite(total) && total > 0 ? Math.floor(total) : 0);

/**
 * Live run statistics on Cosmos DB (`runstats` container, key [run_id, shard]). Per run, one state document
 * ([run, 'stats']) and one outcome document per counted case ([run, shard(case)], spread like the scorecards).
 *
 * `applyOutcomes`, per run: read the state; first write out the outcome documents of the journal it carries (a
 * batch another call counted but may not have finished writing); read the batch's counted outcomes (the journal
 * wins over the documents); apply the differences (the fold's rules: redeliveries and older attempts are
 * skipped); replace the state with IfMatch, carrying this batch's changes as its journal (on 412/409: start
 * over); then write the outcome documents and clear the journal (IfMatch; losing that race is harmless). A crash
 * at any point leaves the state and its journal consistent, so redelivery never double counts, and concurrent
 * calls for one run (several change-feed leases) serialise on the ETag.
 *
 * Known limit: if two concurrent calls count *different* versions of the same case (the same card delivered to
 * two leases around a rebalance, and retried in between), the slower one's outcome write may land after the
 * faster one's journal was cleared, leaving an outcome document older than the state; `recomputeRunStats`
 * (finalizeRun calls it when the live count is short) rebuilds both from the scorecards.
 */
export class CosmosRunStatsStore implements RunStatsStore {
  private readonly clock: Clock;
  private readonly maxConflictRetries: number;

  constructor(
    readonly container: Container,
    private readonly scorecards: ScorecardStore,
    private readonly options: CosmosRunStatsStoreOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.maxConflictRetries = options.maxConflictRetries ?? 50;
  }

  async applyOutcomes(outcomes: readonly CaseOutcome[], totals: ReadonlyMap<string, number>): Promise<RunStats[]> {
    const byRun = new Map<string, CaseOutcome[]>();
    for (const outcome of outcomes) {
      const list = byRun.get(outcome.run_id);
      if (list) list.push(outcome);
      else byRun.set(outcome.run_id, [outcome]);
    }
    const stats: RunStats[] = [];
    for (const [runId, list] of byRun) stats.push(await this.applyRun(runId, list, totals.get(runId)));
    return stats;
  }

  async getRunStats(runId: string): Promise<RunStats | undefined> {
    const doc = await this.readState(runId);
    return doc && RunStatsAccumulator.fromState(parseRunStatsState(doc.state)).toRunStats(runId, doc.total, doc.updated_at);
  }

  /**
   * The counted outcome documents of the run (one cross-partition query of two fields per case, in pages), the
   * state's journal winning over them (a batch counted whose documents may not be written yet) and journal
   * entries without a document yielded at the end. Order: the query's (whatever `options.order`).
   */
  async *iterateOutcomes(runId: string, _options?: IterateOutcomesOptions): AsyncIterable<CaseOutcome> {
    const doc = await this.readState(runId);
    if (!doc) return;
    const journal = new Map(doc.journal);
    const query = {
      query: 'SELECT c.case_id, c.outcome FROM c WHERE c.run_id = @run AND c.shard != @stats',
      parameters: [
        { name: '@run', value: runId },
        { name: '@stats', value: STATS_SHARD },
      ],
    };
    for await (const page of queryPages<Pick<OutcomeDocument, 'case_id' | 'outcome'>>(this.container, query, {
      maxItemCount: OUTCOME_PAGE_SIZE,
    })) {
      for (const { case_id, outcome } of page) {
        const journaled = journal.get(case_id);
        if (journaled !== undefined) journal.delete(case_id);
        yield decodeOutcome(runId, case_id, journaled ?? outcome);
      }
    }
    for (const [caseId, text] of journal) yield decodeOutcome(runId, caseId, text);
  }

  async deleteOutcomes(runId: string, options: { limit?: number } = {}): Promise<number> {
    const keys = await queryAll<{ id: string; shard: string }>(this.container, {
      query: 'SELECT TOP @limit c.id, c.shard FROM c WHERE c.run_id = @run AND c.shard != @stats',
      parameters: [
        { name: '@run', value: runId },
        { name: '@stats', value: STATS_SHARD },
        { name: '@limit', value: deleteLimit(options.limit) },
      ],
    });
    if (keys.length === 0) {
      // the documents are gone: drop a journal left by a crash too, so iterateOutcomes yields nothing
      const doc = await this.readState(runId);
      if (!doc || doc.journal.length === 0) return 0;
      const cleared = doc.journal.length;
      return (await this.writeState({ ...doc, journal: [] }, doc._etag)) ? cleared : this.deleteOutcomes(runId, options);
    }
    const results = await executeBulk(
      this.container,
      keys.map(({ id, shard }) => ({ operationType: BulkOperationType.Delete, id, partitionKey: [runId, shard] })),
    );
    assertBulk(results, (status) => status === 204 || status === 404);
    return keys.length;
  }

  async deleteRunStats(runId: string): Promise<void> {
    while ((await this.deleteOutcomes(runId, { limit: 10_000 })) > 0);
    try {
      await this.container.item(STATS_ID, [runId, STATS_SHARD]).delete();
    } catch (error) {
      if (cosmosStatus(error) !== 404) throw error;
    }
  }

  async recomputeRunStats(runId: string, total: number): Promise<RunStats> {
    const acc = RunStatsAccumulator.empty();
    let chunk: OutcomeDocument[] = [];
    for await (const card of this.scorecards.iterateScorecards(runId)) {
      if (card.run_id !== runId) continue;
      const outcome = caseOutcomeOf(card);
      acc.add(outcome);
      chunk.push(this.outcomeDocument(outcome.run_id, outcome.test_case_id, encodeOutcome(outcome)));
      if (chunk.length >= 1_000) {
        await this.writeOutcomes(chunk);
        chunk = [];
      }
    }
    await this.writeOutcomes(chunk);
    const now = this.clock.now().toISOString();
    const state = acc.toState();
    const doc: StatsDocument = {
      id: STATS_ID,
      run_id: runId,
      shard: STATS_SHARD,
      state: JSON.stringify(state),
      total: caseCount(total),
      updated_at: now,
      journal: [],
    };
    await this.container.items.upsert(doc);
    return acc.toRunStats(runId, doc.total, now, state);
  }

  private async applyRun(runId: string, outcomes: readonly CaseOutcome[], totalGiven: number | undefined): Promise<RunStats> {
    for (let attempt = 0; ; attempt++) {
      const doc = await this.readState(runId);
      if (doc && doc.journal.length > 0) await this.writeOutcomes(this.journalDocuments(runId, doc.journal));
      const counted = await this.readCounted(runId, outcomes, doc?.journal ?? []);
      const acc = doc ? RunStatsAccumulator.fromState(parseRunStatsState(doc.state)) : RunStatsAccumulator.empty();
      const journal = new Map<string, string>();
      for (const next of outcomes) {
        const text = encodeOutcome(next);
        const previous = counted.get(next.test_case_id);
        if (previous) {
          if (previous.text === text) continue;
          const decoded = decodeOutcome(runId, next.test_case_id, previous.text);
          if (!replacesCountedText(previous.text, decoded, text, next)) continue;
          acc.apply(decoded, next);
        } else {
          acc.add(next);
        }
        counted.set(next.test_case_id, { text });
        journal.set(next.test_case_id, text);
      }
      const total = totalGiven === undefined ? (doc?.total ?? 0) : caseCount(totalGiven);
      if (doc && journal.size === 0 && total === doc.total) return acc.toRunStats(runId, total, doc.updated_at);
      const now = this.clock.now().toISOString();
      const state = acc.toState();
      const next: StatsDocument = {
        id: STATS_ID,
        run_id: runId,
        shard: STATS_SHARD,
        state: JSON.stringify(state),
        total,
        updated_at: now,
        journal: [...journal],
      };
      const etag = await this.writeState(next, doc?._etag);
      if (etag === undefined) {
        if (attempt >= this.maxConflictRetries) throw new Error(`run statistics of ${runId}: ${attempt + 1} ETag conflicts in a row`);
        const base = this.options.retryDelayInMs ?? 25;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1_000, base * 2 ** attempt)));
        continue;
      }
      if (journal.size > 0) {
        await this.writeOutcomes(this.journalDocuments(runId, next.journal));
        await this.writeState({ ...next, journal: [] }, etag);
      }
      return acc.toRunStats(runId, total, now, state);
    }
  }

  private async readState(runId: string): Promise<StatsDocument | undefined> {
    return readOrUndefined(this.container.item(STATS_ID, [runId, STATS_SHARD]).read<StatsDocument>());
  }

  /** Creates (no ETag) or replaces (IfMatch) the state; the new ETag, or undefined when someone else wrote first. */
  private async writeState(doc: StatsDocument, etag: string | undefined): Promise<string | undefined> {
    try {
      const response = etag
        ? await this.container
            .item(STATS_ID, [doc.run_id, STATS_SHARD])
            .replace(doc, { accessCondition: { type: 'IfMatch', condition: etag } })
        : await this.container.items.create(doc);
      return response.etag;
    } catch (error) {
      const status = cosmosStatus(error);
      if (status === 412 || status === 409 || status === 404) return undefined;
      throw error;
    }
  }

  /** The counted outcome text of each case of the batch: the journal's, else its outcome document's. */
  private async readCounted(
    runId: string,
    outcomes: readonly CaseOutcome[],
    journal: ReadonlyArray<[string, string]>,
  ): Promise<Map<string, { text: string }>> {
    const counted = new Map<string, { text: string }>();
    const journaled = new Map(journal);
    const missing = [...new Set(outcomes.map((o) => o.test_case_id))].filter((caseId) => {
      const text = journaled.get(caseId);
      if (text !== undefined) counted.set(caseId, { text });
      return text === undefined;
    });
    const found = await queryByIds<OutcomeDocument>(this.container, missing.map(toCosmosId), {
      condition: 'c.run_id = @run AND c.shard != @stats',
      parameters: [
        { name: '@run', value: runId },
        { name: '@stats', value: STATS_SHARD },
      ],
    });
    for (const outcome of found.values()) counted.set(outcome.case_id, { text: outcome.outcome });
    return counted;
  }

  private journalDocuments(runId: string, journal: ReadonlyArray<[string, string]>): OutcomeDocument[] {
    return journal.map(([caseId, text]) => this.outcomeDocument(runId, caseId, text));
  }

  private outcomeDocument(runId: string, caseId: string, text: string): OutcomeDocument {
    const doc: OutcomeDocument = { id: toCosmosId(caseId), run_id: runId, shard: shardOf(caseId), case_id: caseId, outcome: text };
    if (this.options.ttlSeconds !== undefined) doc.ttl = this.options.ttlSeconds;
    return doc;
  }

  private async writeOutcomes(docs: readonly OutcomeDocument[]): Promise<void> {
    if (docs.length === 0) return;
    const results = await executeBulk(
      this.container,
      docs.map((doc) => ({
        operationType: BulkOperationType.Upsert,
        partitionKey: [doc.run_id, doc.shard],
        resourceBody: doc as unknown as JSONObject,
      })),
    );
    assertBulk(results, (status) => status === 200 || status === 201);
  }
}
