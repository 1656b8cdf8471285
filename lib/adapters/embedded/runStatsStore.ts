import type Database from 'better-sqlite3';
import {
  type CaseOutcome,
  caseOutcomeOf,
  decodeOutcome,
  encodeOutcome,
  parseRunStatsState,
  replacesCountedText,
  type RunStats,
  RunStatsAccumulator,
  toRunStats,
} from '../../domain/index.js';
import { systemClock, type Clock, type IterateOutcomesOptions, type RunStatsStore, type ScorecardStore } from '../../ports/index.js';
import { deleteLimit } from '../shared/index.js';
import { RunStatsCache } from './runStatsCache.js';
import { iterateOutcomeRows } from './runOutcomeReader.js';
import { RunStatsRecount } from './runStatsRecount.js';
import { createRunStatsTables, type OutcomeRow, type RunStatsRow } from './runStatsTables.js';

export interface EmbeddedRunStatsStoreOptions {
  /** time for `updated_at` (default: the system clock) */
  clock?: Clock;
  /** outcomes staged per transaction during a recount (default 1,000) */
  recountChunkSize?: number;
}

/** A case count as stored: a non-negative integer (anything else counts as 0). */
function caseCount(total: number): number {
  return Number.isFinite(total) && total > 0 ? Math.floor(total) : 0;
}

/** The outcome counted for a case, as stored (`encodeOutcome` text) and, once needed, decoded. */
interface Counted {
  text: string;
  outcome?: CaseOutcome;
}

/**
 * RunStatsStore on the host's SQLite connection (see runStatsTables.ts). `applyOutcomes` runs in one
 * transaction: per run it loads the state once and the batch's previously counted outcomes in one query, skips
 * redeliveries (identical JSON) and older attempts, applies the differences, upserts the outcome rows and
 * stores the state once.
 */
export class EmbeddedRunStatsStore implements RunStatsStore {
  private readonly clock: Clock;
  private readonly recountChunkSize: number;
  private readonly cache = new RunStatsCache();
  private readonly selectStats: Database.Statement<[string], RunStatsRow>;
  private readonly selectCounted: Database.Statement<[string, string], OutcomeRow>;
  private readonly upsertOutcome: Database.Statement<[string, string, string]>;
  private readonly upsertStats: Database.Statement<[string, string, number, string]>;
  private readonly applyTx: (outcomes: readonly CaseOutcome[], totals: ReadonlyMap<string, number>, now: string) => RunStats[];

  constructor(
    private readonly db: Database.Database,
    private readonly scorecards: ScorecardStore,
    options: EmbeddedRunStatsStoreOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.recountChunkSize = options.recountChunkSize ?? 1_000;
    createRunStatsTables(db);
    this.selectStats = db.prepare('SELECT state, total, updated_at FROM st_run_stats WHERE run_id = ?');
    this.selectCounted = db.prepare(
      'SELECT test_case_id, outcome FROM st_run_outcomes WHERE run_id = ? AND test_case_id IN (SELECT value FROM json_each(?))',
    );
    this.upsertOutcome = db.prepare(
      `INSERT INTO st_run_outcomes (run_id, test_case_id, outcome) VALUES (?, ?, ?)
       ON CONFLICT (run_id, test_case_id) DO UPDATE SET outcome = excluded.outcome`,
    );
    this.upsertStats = db.prepare(
      `INSERT INTO st_run_stats (run_id, state, total, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET state = excluded.state, total = excluded.total, updated_at = excluded.updated_at`,
    );
    this.applyTx = db.transaction((outcomes, totals, now) => {
      const byRun = new Map<string, CaseOutcome[]>();
      for (const outcome of outcomes) {
        const list = byRun.get(outcome.run_id);
        if (list) list.push(outcome);
        else byRun.set(outcome.run_id, [outcome]);
      }
      return [...byRun].map(([runId, list]) => this.applyRun(runId, list, totals.get(runId), now));
    });
  }

  async applyOutcomes(outcomes: readonly CaseOutcome[], totals: ReadonlyMap<string, number>): Promise<RunStats[]> {
    if (outcomes.length === 0) return [];
    return this.applyTx(outcomes, totals, this.clock.now().toISOString());
  }

  async getRunStats(runId: string): Promise<RunStats | undefined> {
    const row = this.selectStats.get(runId);
    return row && toRunStats(runId, parseRunStatsState(row.state), row.total, row.updated_at);
  }

  async *iterateOutcomes(runId: string, options: IterateOutcomesOptions = {}): AsyncIterable<CaseOutcome> {
    yield* iterateOutcomeRows(this.db, runId, options);
  }

  async deleteOutcomes(runId: string, options: { limit?: number } = {}): Promise<number> {
    return this.db
      .prepare<[string, string, number]>(
        'DELETE FROM st_run_outcomes WHERE run_id = ? AND test_case_id IN (SELECT test_case_id FROM st_run_outcomes WHERE run_id = ? LIMIT ?)',
      )
      .run(runId, runId, deleteLimit(options.limit)).changes;
  }

  async deleteRunStats(runId: string): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare<[string]>('DELETE FROM st_run_outcomes WHERE run_id = ?').run(runId);
      this.db.prepare<[string]>('DELETE FROM st_run_stats WHERE run_id = ?').run(runId);
    })();
  }

  async recomputeRunStats(runId: string, total: number): Promise<RunStats> {
    const acc = RunStatsAccumulator.empty();
    const recount = new RunStatsRecount(this.db, runId, acc);
    try {
      let chunk: CaseOutcome[] = [];
      for await (const card of this.scorecards.iterateScorecards(runId)) {
        if (card.run_id !== runId) continue;
        chunk.push(caseOutcomeOf(card));
        if (chunk.length >= this.recountChunkSize) {
          recount.stage(chunk);
          chunk = [];
        }
      }
      recount.stage(chunk);
      const now = this.clock.now().toISOString();
      const swap = this.db.transaction(() => {
        recount.replaceLive();
        return this.storeState(runId, acc, caseCount(total), now);
      });
      return swap();
    } finally {
      recount.dispose();
    }
  }

  private applyRun(runId: string, outcomes: readonly CaseOutcome[], totalGiven: number | undefined, now: string): RunStats {
    const row = this.selectStats.get(runId);
    const acc = row ? this.cache.take(runId, row.state) : RunStatsAccumulator.empty();
    const counted = new Map<string, Counted>();
    if (row) {
      const ids = JSON.stringify(outcomes.map((outcome) => outcome.test_case_id));
      for (const { test_case_id, outcome } of this.selectCounted.all(runId, ids)) counted.set(test_case_id, { text: outcome });
    }
    let changed = false;
    for (const next of outcomes) {
      const text = encodeOutcome(next);
      const previous = counted.get(next.test_case_id);
      if (previous) {
        if (previous.text === text) continue; // a redelivery
        previous.outcome ??= decodeOutcome(runId, next.test_case_id, previous.text);
        if (!replacesCountedText(previous.text, previous.outcome, text, next)) continue;
        acc.apply(previous.outcome, next);
      } else {
        acc.add(next);
      }
      counted.set(next.test_case_id, { text, outcome: next });
      this.upsertOutcome.run(runId, next.test_case_id, text);
      changed = true;
    }
    const total = totalGiven === undefined ? (row?.total ?? 0) : caseCount(totalGiven);
    if (row && !changed && total === row.total) {
      this.cache.put(runId, row.state, acc);
      return acc.toRunStats(runId, total, row.updated_at);
    }
    return this.storeState(runId, acc, total, now);
  }

  /** Writes the run's state row and returns its statistics. */
  private storeState(runId: string, acc: RunStatsAccumulator, total: number, now: string): RunStats {
    const state = acc.toState();
    const text = JSON.stringify(state);
    this.upsertStats.run(runId, text, total, now);
    this.cache.put(runId, text, acc);
    return acc.toRunStats(runId, total, now, state);
  }
}
