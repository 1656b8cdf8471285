import { organizationOf, type TestCase } from '../../domain/index.js';
import { newEtag, type SqliteDatabase } from './sqlite.js';

interface ExistingRow {
  rid: number;
  etag: string;
  tags: string;
}

/**
 * The row-level writes of the test-case store (synchronous; callers wrap them in a transaction): the narrow row,
 * the body, the tag rows and the FTS5 entry of a case always change together.
 */
export class TestCaseWriter {
  private readonly selectExisting;
  private readonly insertCase;
  private readonly updateCase;
  private readonly upsertBody;
  private readonly insertTag;
  private readonly deleteTag;
  private readonly insertFts;
  private readonly deleteFts;
  private readonly deleteCase;
  private readonly deleteBody;

  constructor(db: SqliteDatabase) {
    this.selectExisting = db.prepare<[string], ExistingRow>('SELECT rid, etag, tags FROM st_test_cases WHERE id = ?');
    this.insertCase = db.prepare<[string, string, string | null, number, string | null, string, string, string, string]>(
      `INSERT INTO st_test_cases (id, etag, category, complexity, api_version, tags, created_at, updated_at, organization)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.updateCase = db.prepare<[string, string | null, number, string | null, string, string, string, number]>(
      'UPDATE st_test_cases SET etag = ?, category = ?, complexity = ?, api_version = ?, tags = ?, updated_at = ?, organization = ? WHERE rid = ?',
    );
    this.upsertBody = db.prepare<[number, string]>(
      'INSERT INTO st_test_case_bodies (rid, body) VALUES (?, ?) ON CONFLICT (rid) DO UPDATE SET body = excluded.body',
    );
    this.insertTag = db.prepare<[string, number, string | null, number, string | null, string]>(
      'INSERT OR IGNORE INTO st_test_case_tags (tag, rid, category, complexity, api_version, organization) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.deleteTag = db.prepare<[string, number]>('DELETE FROM st_test_case_tags WHERE tag = ? AND rid = ?');
    this.insertFts = db.prepare<[number, string, string, string]>(
      'INSERT INTO st_test_case_fts (rowid, nl_query, expected_nl_response, tags) VALUES (?, ?, ?, ?)',
    );
    this.deleteFts = db.prepare<[number]>('DELETE FROM st_test_case_fts WHERE rowid = ?');
    this.deleteCase = db.prepare<[number]>('DELETE FROM st_test_cases WHERE rid = ?');
    this.deleteBody = db.prepare<[number]>('DELETE FROM st_test_case_bodies WHERE rid = ?');
  }

  /** The stored ETag of a case, if it exists. */
  etagOf(id: string): string | undefined {
    return this.selectExisting.get(id)?.etag;
  }

  /** Inserts or replaces a case; returns whether it was created and its new ETag. */
  write(testCase: TestCase, body: string, now: string): { created: boolean; etag: string } {
    const etag = newEtag();
    const metadata = testCase.metadata ?? { complexity_level: 1, tags: [] };
    const tags = metadata.tags ?? [];
    const tagsJson = JSON.stringify(tags);
    const category = metadata.category ?? null;
    const complexity = metadata.complexity_level ?? 1;
    const apiVersion = metadata.api_version ?? null;
    const organization = organizationOf(testCase);
    const existing = this.selectExisting.get(testCase.id);
    let rid: number;
    if (existing) {
      rid = existing.rid;
      this.updateCase.run(etag, category, complexity, apiVersion, tagsJson, now, organization, rid);
      for (const tag of JSON.parse(existing.tags) as string[]) this.deleteTag.run(tag, rid);
      this.deleteFts.run(rid);
    } else {
      rid = Number(
        this.insertCase.run(testCase.id, etag, category, complexity, apiVersion, tagsJson, now, now, organization).lastInsertRowid,
      );
    }
    this.upsertBody.run(rid, body);
    for (const tag of tags) this.insertTag.run(tag, rid, category, complexity, apiVersion, organization);
    this.insertFts.run(rid, testCase.nl_query, testCase.expected_nl_response ?? '', tags.join(' '));
    return { created: !existing, etag };
  }

  /** Removes a case and everything linked to it; does nothing when it does not exist. */
  remove(id: string): void {
    const existing = this.selectExisting.get(id);
    if (!existing) return;
    for (const tag of JSON.parse(existing.tags) as string[]) this.deleteTag.run(tag, existing.rid);
    this.deleteFts.run(existing.rid);
    this.deleteBody.run(existing.rid);
    this.deleteCase.run(existing.rid);
  }
}
