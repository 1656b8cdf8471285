import { caseOutcomeOf, outcomeId, type Scorecard, scorecardKeyOf } from '../../domain/index.js';
import type { ChangeLog } from '../../host/index.js';
import type { Page, PageOptions, ScorecardFilter, ScorecardStore } from '../../ports/index.js';
import { yieldToHost } from './yieldToHost.js';
import { pageIn, pageWindow } from './pageWindow.js';
import { scorecardQuery } from './scorecardQuery.js';
import { createScorecardTables } from './scorecardTables.js';
import { ScorecardWriter } from './scorecardWriter.js';
import type { SqliteDatabase } from './sqlite.js';
import { deleteLimit } from '../shared/index.js';
import { StatementCache } from './statementCache.js';

/** The change-log container the store appends each written card's CaseOutcome to. */
export const SCORECARD_CONTAINER = 'scorecards';

/** How many cards `iterateScorecards` reads per query. */
export const ITERATE_PAGE_SIZE = 500;

/**
 * Scorecards on SQLite. `upsertScorecards` writes a batch in one transaction (pass up to ~1,000 cards per call)
 * and, in the same transaction, appends the CaseOutcome of every card it wrote to the change log (container
 * `scorecards`, id `outcomeId(run, case)`), which the run-statistics feed folds. Cards are trusted (the pipeline
 * built them): no schema check on write or read. Lists and iteration follow the order of each card's first write.
 */
export class EmbeddedScorecardStore implements ScorecardStore {
  private readonly statements: StatementCache;
  private readonly selectOne;
  private readonly selectAfter;
  private readonly writeBatch: (cards: readonly Scorecard[]) => { written: number; unchanged: number };
  private readonly deleteBatch: (runId: string, limit: number) => number;

  constructor(db: SqliteDatabase, changeLog: ChangeLog) {
    createScorecardTables(db);
    this.statements = new StatementCache(db);
    const writer = new ScorecardWriter(db);
    this.selectOne = db.prepare<[string, string], { body: string }>('SELECT body FROM st_scorecards WHERE run_id = ? AND test_case_id = ?');
    this.selectAfter = db.prepare<[string, number, number], { r: number; body: string }>(
      'SELECT rowid AS r, body FROM st_scorecards WHERE run_id = ? AND rowid > ? ORDER BY rowid LIMIT ?',
    );
    const pickRows = db.prepare<[string, number], { r: number }>(
      'SELECT rowid AS r FROM st_scorecards WHERE run_id = ? ORDER BY rowid LIMIT ?',
    );
    const deleteTags = db.prepare<[string, number]>('DELETE FROM st_scorecard_tags WHERE run_id = ? AND card = ?');
    const deleteCard = db.prepare<[number]>('DELETE FROM st_scorecards WHERE rowid = ?');
    // a card and its tag rows go together (one transaction per batch): a crash leaves whole cards or none
    this.deleteBatch = db.transaction((runId: string, limit: number) => {
      const rows = pickRows.all(runId, limit);
      for (const { r } of rows) {
        deleteTags.run(runId, r);
        deleteCard.run(r);
      }
      return rows.length;
    });
    this.writeBatch = db.transaction((cards: readonly Scorecard[]) => {
      const outcomes: Array<{ id: string; body: string }> = [];
      for (const card of cards) {
        if (writer.write(card))
          outcomes.push({ id: outcomeId(card.run_id, scorecardKeyOf(card)), body: JSON.stringify(caseOutcomeOf(card)) });
      }
      changeLog.appendJson(SCORECARD_CONTAINER, outcomes);
      return { written: outcomes.length, unchanged: cards.length - outcomes.length };
    });
  }

  async deleteScorecards(runId: string, options: { limit?: number } = {}): Promise<number> {
    return this.deleteBatch(runId, deleteLimit(options.limit));
  }

  async upsertScorecards(cards: readonly Scorecard[]): Promise<{ written: number; unchanged: number }> {
    if (cards.length === 0) return { written: 0, unchanged: 0 };
    return this.writeBatch(cards);
  }

  async getScorecard(runId: string, testCaseId: string): Promise<Scorecard | undefined> {
    const row = this.selectOne.get(runId, testCaseId);
    return row ? (JSON.parse(row.body) as Scorecard) : undefined;
  }

  async listScorecards(runId: string, filter?: ScorecardFilter, options?: PageOptions): Promise<Page<Scorecard>> {
    const window = pageWindow(options);
    const query = scorecardQuery(runId, filter);
    const sql = `SELECT c.body FROM (SELECT ${query.card} AS r FROM ${query.from} WHERE ${query.where} ORDER BY r LIMIT ? OFFSET ?) AS p
      CROSS JOIN st_scorecards c ON c.rowid = p.r ORDER BY p.r`;
    const items = this.statements
      .get<{ body: string }>(sql)
      .all(...query.params, window.limit, window.offset)
      .map((row) => JSON.parse(row.body) as Scorecard);
    const complete = items.length < window.limit && (items.length > 0 || window.offset === 0);
    return pageIn(items, complete ? window.offset + items.length : this.count(runId, filter), window);
  }

  /** Every card of the run in pages of ITERATE_PAGE_SIZE (keyset on the rowid): no transaction stays open between pages. */
  async *iterateScorecards(runId: string): AsyncIterable<Scorecard> {
    let after = 0;
    for (;;) {
      const rows = this.selectAfter.all(runId, after, ITERATE_PAGE_SIZE);
      for (const row of rows) yield JSON.parse(row.body) as Scorecard;
      if (rows.length < ITERATE_PAGE_SIZE) return;
      after = rows[rows.length - 1]!.r;
      await yieldToHost();
    }
  }

  async countScorecards(runId: string, filter?: ScorecardFilter): Promise<number> {
    return this.count(runId, filter);
  }

  private count(runId: string, filter: ScorecardFilter | undefined): number {
    const query = scorecardQuery(runId, filter);
    return this.statements.get<{ n: number }>(`SELECT count(*) AS n FROM ${query.from} WHERE ${query.where}`).get(...query.params)?.n ?? 0;
  }
}
