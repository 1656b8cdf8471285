import { type Scorecard, scorecardKeyOf } from '../../domain/index.js';
import { encodeScorecard } from '../shared/index.js';
import type { SqliteDatabase } from './sqlite.js';

interface StoredCard {
  rowid: number;
  attempt_number: number;
  content_hash: string;
  tags: string;
}

type CardColumns = [
  attempt: number,
  passed: number,
  failingStage: string | null,
  errorCode: string | null,
  category: string | null,
  contentHash: string,
  tags: string,
  body: string,
];

/**
 * The row-level write of one scorecard (synchronous; the store wraps a batch in one transaction). A card is
 * written unless the stored one has a higher attempt_number or the same content (see encodeScorecard); a card
 * with the same attempt and different content replaces the stored one (the later evaluation wins).
 */
export class ScorecardWriter {
  private readonly selectStored;
  private readonly insertCard;
  private readonly updateCard;
  private readonly insertTag;
  private readonly deleteTag;

  constructor(db: SqliteDatabase) {
    this.selectStored = db.prepare<[string, string], StoredCard>(
      'SELECT rowid, attempt_number, content_hash, tags FROM st_scorecards WHERE run_id = ? AND test_case_id = ?',
    );
    this.insertCard = db.prepare<[string, string, ...CardColumns]>(
      `INSERT INTO st_scorecards (run_id, test_case_id, attempt_number, overall_passed, failing_stage, error_code, category, content_hash, tags, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, test_case_id) DO NOTHING`,
    );
    this.updateCard = db.prepare<[...CardColumns, number]>(
      `UPDATE st_scorecards SET attempt_number = ?, overall_passed = ?, failing_stage = ?, error_code = ?, category = ?,
       content_hash = ?, tags = ?, body = ? WHERE rowid = ?`,
    );
    this.insertTag = db.prepare<[string, string, number, number, string | null, string | null, string | null]>(
      `INSERT OR IGNORE INTO st_scorecard_tags (run_id, tag, card, overall_passed, failing_stage, error_code, category)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.deleteTag = db.prepare<[string, string, number]>('DELETE FROM st_scorecard_tags WHERE run_id = ? AND tag = ? AND card = ?');
  }

  /**
   * Writes the card when it changes what is stored; returns whether it did. A new card (the common case) costs one
   * INSERT; only a conflict reads the stored attempt and hash.
   */
  write(card: Scorecard): boolean {
    const { body, contentHash } = encodeScorecard(card);
    const tags = card.tags ?? [];
    const tagsJson = JSON.stringify(tags);
    const columns: CardColumns = [
      card.attempt_number,
      card.overall_passed ? 1 : 0,
      card.failing_stage ?? null,
      card.error_code ?? null,
      card.category ?? null,
      contentHash,
      tagsJson,
      body,
    ];
    // keyed by (run, trial key): trial 1 under its case id, as before trials existed
    const key = scorecardKeyOf(card);
    const inserted = this.insertCard.run(card.run_id, key, ...columns);
    if (inserted.changes === 1) {
      this.insertTags(card, tags, Number(inserted.lastInsertRowid), columns);
      return true;
    }
    const stored = this.selectStored.get(card.run_id, key)!;
    if (stored.attempt_number > card.attempt_number || stored.content_hash === contentHash) return false;
    this.updateCard.run(...columns, stored.rowid);
    for (const tag of JSON.parse(stored.tags) as string[]) this.deleteTag.run(card.run_id, tag, stored.rowid);
    this.insertTags(card, tags, stored.rowid, columns);
    return true;
  }

  private insertTags(card: Scorecard, tags: readonly string[], rowid: number, [, passed, stage, code, category]: CardColumns): void {
    for (const tag of tags) this.insertTag.run(card.run_id, tag, rowid, passed, stage, code, category);
  }
}
