import type Database from 'better-sqlite3';
import {
  ENCODED_ATTEMPT_PATH,
  decodeOutcome,
  encodeOutcome,
  replacesCountedText,
  type CaseOutcome,
  type RunStatsAccumulator,
} from '../../domain/index.js';

let nextRecountId = 1;

interface StagedRow {
  outcome: string;
}
interface LiveNewerRow {
  test_case_id: string;
  live: string;
  staged: string | null;
}

/**
 * One recount of a run: outcomes read from the scorecards are staged in `temp.st_run_recount` in chunks (each
 * chunk its own transaction, so reading scorecards asynchronously never holds a transaction open) and folded
 * into a fresh accumulator; `replaceLive` then swaps them in. Memory stays flat: only a chunk is held.
 */
export class RunStatsRecount {
  readonly id = nextRecountId++;
  private readonly insertStaged: Database.Statement<[number, string, number, string]>;
  private readonly selectStaged: Database.Statement<[number, string], StagedRow>;
  private readonly upsertStaged: Database.Statement<[number, string, number, string]>;
  private readonly selectLiveNewer: Database.Statement<{ runId: string; recountId: number }, LiveNewerRow>;
  private readonly copyToLive: Database.Statement<{ runId: string; recountId: number }>;
  private readonly deleteStaged: Database.Statement<[number]>;
  private readonly stageTx: (outcomes: readonly CaseOutcome[]) => void;

  constructor(
    db: Database.Database,
    private readonly runId: string,
    private readonly acc: RunStatsAccumulator,
  ) {
    this.insertStaged = db.prepare(
      'INSERT INTO temp.st_run_recount (recount_id, test_case_id, attempt_number, outcome) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.selectStaged = db.prepare('SELECT outcome FROM temp.st_run_recount WHERE recount_id = ? AND test_case_id = ?');
    this.upsertStaged = db.prepare(
      `INSERT INTO temp.st_run_recount (recount_id, test_case_id, attempt_number, outcome) VALUES (?, ?, ?, ?)
       ON CONFLICT (recount_id, test_case_id) DO UPDATE SET attempt_number = excluded.attempt_number, outcome = excluded.outcome`,
    );
    this.selectLiveNewer = db.prepare(
      `SELECT l.test_case_id AS test_case_id, l.outcome AS live, s.outcome AS staged
       FROM st_run_outcomes AS l
       LEFT JOIN temp.st_run_recount AS s ON s.recount_id = @recountId AND s.test_case_id = l.test_case_id
       WHERE l.run_id = @runId AND (s.test_case_id IS NULL OR json_extract(l.outcome, '${ENCODED_ATTEMPT_PATH}') > s.attempt_number)`,
    );
    this.copyToLive = db.prepare(
      `INSERT INTO st_run_outcomes (run_id, test_case_id, outcome)
       SELECT @runId, test_case_id, outcome FROM temp.st_run_recount WHERE recount_id = @recountId
       ON CONFLICT (run_id, test_case_id) DO UPDATE SET outcome = excluded.outcome WHERE outcome <> excluded.outcome`,
    );
    this.deleteStaged = db.prepare('DELETE FROM temp.st_run_recount WHERE recount_id = ?');
    this.stageTx = db.transaction((outcomes: readonly CaseOutcome[]) => {
      for (const outcome of outcomes) this.stageOne(outcome);
    });
  }

  /** Stages and folds a chunk of outcomes read from the scorecards (one transaction). */
  stage(outcomes: readonly CaseOutcome[]): void {
    if (outcomes.length > 0) this.stageTx(outcomes);
  }

  /**
   * Call inside the swap transaction. Keeps what the live fold counted after the scorecards were read (a case
   * absent from the recount, or counted at a higher attempt: the change feed delivered it meanwhile; on equal
   * attempts the scorecard wins), then makes the run's outcome rows equal to the staged ones (writing only rows
   * that differ).
   */
  replaceLive(): void {
    const key = { runId: this.runId, recountId: this.id };
    for (const row of this.selectLiveNewer.all(key)) {
      const live = decodeOutcome(this.runId, row.test_case_id, row.live);
      this.acc.apply(row.staged === null ? undefined : decodeOutcome(this.runId, row.test_case_id, row.staged), live);
      this.upsertStaged.run(this.id, row.test_case_id, live.attempt_number, row.live);
    }
    this.copyToLive.run(key);
  }

  /** Drops the staging rows (always call, in `finally`). */
  dispose(): void {
    this.deleteStaged.run(this.id);
  }

  private stageOne(outcome: CaseOutcome): void {
    const text = encodeOutcome(outcome);
    if (this.insertStaged.run(this.id, outcome.test_case_id, outcome.attempt_number, text).changes === 1) {
      this.acc.add(outcome);
      return;
    }
    // the scorecards listed the same case twice: keep the later attempt, like the live fold
    const stagedText = this.selectStaged.get(this.id, outcome.test_case_id)?.outcome;
    if (stagedText === undefined) return;
    const staged = decodeOutcome(this.runId, outcome.test_case_id, stagedText);
    if (!replacesCountedText(stagedText, staged, text, outcome)) return;
    this.acc.apply(staged, outcome);
    this.upsertStaged.run(this.id, outcome.test_case_id, outcome.attempt_number, text);
  }
}
