import {
  FeedbackCandidateSchema,
  FeedbackInteractionSchema,
  type FeedbackCandidate,
  type FeedbackInteraction,
} from '../../domain/index.js';
import {
  type CandidateFilter,
  ConflictError,
  type FeedbackStore,
  NotFoundError,
  PreconditionFailedError,
  type WithEtag,
} from '../../ports/index.js';
import { newEtag, withoutEtag, type SqliteDatabase } from './sqlite.js';

/**
 * Interactions keyed by their id (INSERT ... DO NOTHING: a re-posted one is kept as first stored) and candidates
 * with their status and group as columns (indexed for the review queue's lists) beside the JSON body.
 */
const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS st_feedback_interactions (
  id TEXT NOT NULL PRIMARY KEY,
  received_at TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS st_feedback_candidates (
  id TEXT NOT NULL PRIMARY KEY,
  status TEXT NOT NULL,
  group_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  etag TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS st_feedback_candidates_by_status ON st_feedback_candidates (status, created_at, id);
CREATE INDEX IF NOT EXISTS st_feedback_candidates_by_group ON st_feedback_candidates (group_id, created_at, id);`;

interface CandidateRow {
  body: string;
  etag: string;
}

const candidateOf = (row: CandidateRow): WithEtag<FeedbackCandidate> => ({
  ...FeedbackCandidateSchema.parse(JSON.parse(row.body)),
  _etag: row.etag,
});

/** The feedback store on SQLite (embedded platform). */
export class EmbeddedFeedbackStore implements FeedbackStore {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA_SQL);
  }

  async addInteraction(
    interaction: FeedbackInteraction,
    receivedAt: string,
  ): Promise<{ created: boolean; interaction: FeedbackInteraction }> {
    const valid = FeedbackInteractionSchema.parse(interaction);
    const inserted = this.db
      .prepare<[string, string, string]>(
        'INSERT INTO st_feedback_interactions (id, received_at, body) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
      )
      .run(valid.id, receivedAt, JSON.stringify(valid));
    if (inserted.changes === 1) return { created: true, interaction: valid };
    return { created: false, interaction: (await this.getInteraction(valid.id))! };
  }

  async getInteraction(id: string): Promise<FeedbackInteraction | undefined> {
    const row = this.db.prepare<[string], { body: string }>('SELECT body FROM st_feedback_interactions WHERE id = ?').get(id);
    return row ? FeedbackInteractionSchema.parse(JSON.parse(row.body)) : undefined;
  }

  async createCandidate(candidate: FeedbackCandidate): Promise<WithEtag<FeedbackCandidate>> {
    const valid = FeedbackCandidateSchema.parse(withoutEtag(candidate));
    const etag = newEtag();
    const inserted = this.db
      .prepare<[string, string, string, string, string, string]>(
        `INSERT INTO st_feedback_candidates (id, status, group_id, created_at, etag, body) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO NOTHING`,
      )
      .run(valid.id, valid.status, valid.group_id, valid.created_at, etag, JSON.stringify(valid));
    if (inserted.changes === 0) throw new ConflictError('feedback candidate', valid.id);
    return { ...valid, _etag: etag };
  }

  async getCandidate(id: string): Promise<WithEtag<FeedbackCandidate> | undefined> {
    const row = this.db.prepare<[string], CandidateRow>('SELECT body, etag FROM st_feedback_candidates WHERE id = ?').get(id);
    return row ? candidateOf(row) : undefined;
  }

  async replaceCandidate(candidate: FeedbackCandidate, options: { ifMatch?: string } = {}): Promise<WithEtag<FeedbackCandidate>> {
    const valid = FeedbackCandidateSchema.parse(withoutEtag(candidate));
    const etag = newEtag();
    const changed = this.db
      .prepare<[string, string, string, string, string, string | null, string | null]>(
        `UPDATE st_feedback_candidates SET status = ?, group_id = ?, etag = ?, body = ?
         WHERE id = ? AND (? IS NULL OR etag = ?)`,
      )
      .run(valid.status, valid.group_id, etag, JSON.stringify(valid), valid.id, options.ifMatch ?? null, options.ifMatch ?? null);
    if (changed.changes === 0) {
      if (!(await this.getCandidate(valid.id))) throw new NotFoundError('feedback candidate', valid.id);
      throw new PreconditionFailedError('feedback candidate', valid.id);
    }
    return { ...valid, _etag: etag };
  }

  async listCandidates(filter: CandidateFilter = {}): Promise<Array<WithEtag<FeedbackCandidate>>> {
    return this.db
      .prepare<[string | null, string | null, string | null, string | null], CandidateRow>(
        `SELECT body, etag FROM st_feedback_candidates
         WHERE (? IS NULL OR status = ?) AND (? IS NULL OR group_id = ?) ORDER BY created_at, id`,
      )
      .all(filter.status ?? null, filter.status ?? null, filter.group_id ?? null, filter.group_id ?? null)
      .map(candidateOf);
  }
}
