import { yieldToHost } from './yieldToHost.js';
import type { IterateOutcomesOptions } from '../../ports/index.js';
import { decodeOutcome, type CaseOutcome } from '../../domain/index.js';
import type { SqliteDatabase } from './sqlite.js';

/** Outcome rows read per query (each page is its own statement run: nothing stays open across a yield). */
export const OUTCOME_PAGE_SIZE = 1_000;

interface CardOrderRow {
  r: number;
  id: string;
  outcome: string;
}
interface KeyOrderRow {
  id: string;
  outcome: string;
}

const hasScorecardTable = (db: SqliteDatabase): boolean =>
  db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'st_scorecards'").get()!.n > 0;

/**
 * Streams a run's counted outcomes (`st_run_outcomes`) in the order `iterateScorecards` gives the cards (their
 * first write: `st_scorecards_by_run`), so a comparison or a regression check reading outcomes sees the cases in
 * the same order (and gets the same sums, bootstrap draws and figures) as one reading scorecards. Outcomes
 * without a card (fed to the statistics directly) follow, by case id; that second pass is skipped when the first
 * one already yielded every counted case (the normal case: one count query). With `order: 'any'`: key order
 * only (no visit of the card rows, ~3x cheaper on real cards).
 */
export async function* iterateOutcomeRows(
  db: SqliteDatabase,
  runId: string,
  options: IterateOutcomesOptions = {},
): AsyncIterable<CaseOutcome> {
  const byCards = options.order !== 'any';
  const withCards = hasScorecardTable(db);
  let yielded = 0;
  if (withCards && byCards) {
    const page = db.prepare<[string, number, number], CardOrderRow>(
      `SELECT s.rowid AS r, o.test_case_id AS id, o.outcome AS outcome
       FROM st_scorecards AS s CROSS JOIN st_run_outcomes AS o ON o.run_id = s.run_id AND o.test_case_id = s.test_case_id
       WHERE s.run_id = ? AND s.rowid > ? ORDER BY s.rowid LIMIT ?`,
    );
    for (let after = 0; ;) {
      const rows = page.all(runId, after, OUTCOME_PAGE_SIZE);
      for (const row of rows) yield decodeOutcome(runId, row.id, row.outcome);
      yielded += rows.length;
      if (rows.length < OUTCOME_PAGE_SIZE) break;
      after = rows[rows.length - 1]!.r;
      await yieldToHost();
    }
    const counted = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM st_run_outcomes WHERE run_id = ?').get(runId)!.n;
    if (counted <= yielded) return;
  }
  const rest = db.prepare<[string, string, number], KeyOrderRow>(
    `SELECT o.test_case_id AS id, o.outcome AS outcome FROM st_run_outcomes AS o
     WHERE o.run_id = ? AND o.test_case_id > ?${withCards && byCards ? ' AND NOT EXISTS (SELECT 1 FROM st_scorecards AS s WHERE s.run_id = o.run_id AND s.test_case_id = o.test_case_id)' : ''}
     ORDER BY o.test_case_id LIMIT ?`,
  );
  for (let after = ''; ;) {
    const rows = rest.all(runId, after, OUTCOME_PAGE_SIZE);
    for (const row of rows) yield decodeOutcome(runId, row.id, row.outcome);
    if (rows.length < OUTCOME_PAGE_SIZE) return;
    after = rows[rows.length - 1]!.id;
    await yieldToHost();
  }
}
