import type { FindSimilarOptions, SimilarTestCase } from '../../ports/index.js';
import type { SqliteDatabase } from './sqlite.js';
import { roundScore, similarityTerms, trigramCosine, trigramVector } from '../shared/index.js';

/** Cases rescored per query (the best of the full-text candidates). */
export const SIMILAR_CANDIDATES = 400;
/** Candidate retrieval reads the doclists of the query's rarest words until about this many postings. */
export const SIMILAR_POSTING_BUDGET = 60_000;
const MIN_TERMS = 2;
const MAX_TERMS = 16;

/**
 * Near-duplicate search on SQLite in two steps:
 * 1. candidates: the FTS5 index (questions only) with the query's words ORed, best bm25 first. Only the rarest
 *    words are used (their document counts come from an fts5vocab table) until SIMILAR_POSTING_BUDGET postings,
 *    at least two, so a question made of common words does not rank half the gold set;
 * 2. score: the cosine of character-trigram vectors (testCaseSimilarity.ts) of each candidate's question, exact.
 * A near-duplicate that shares none of the query's rarer words is not found (a known limit of step 1).
 */
export class TestCaseSimilarSearch {
  private readonly docCount;
  private readonly candidates;

  constructor(db: SqliteDatabase) {
    this.docCount = db.prepare<[string], { doc: number }>("SELECT doc FROM st_test_case_fts_vocab WHERE term = ? AND col = 'nl_query'");
    this.candidates = db.prepare<[string, number], { id: string; nl_query: string }>(
      `SELECT c.id, json_extract(b.body, '$.nl_query') AS nl_query
       FROM (SELECT rowid AS rid FROM st_test_case_fts WHERE st_test_case_fts MATCH ? ORDER BY rank LIMIT ?) AS m
       CROSS JOIN st_test_cases c ON c.rid = m.rid CROSS JOIN st_test_case_bodies b ON b.rid = m.rid`,
    );
  }

  find(text: string, options: FindSimilarOptions = {}): SimilarTestCase[] {
    const limit = Math.min(100, Math.max(1, Math.trunc(options.limit ?? 10)));
    const minScore = Math.min(1, Math.max(0, options.minScore ?? 0.5));
    const terms = this.candidateTerms(text);
    if (terms.length === 0) return [];
    const match = `nl_query : (${terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ')})`;
    const query = trigramVector(text);
    const scored: SimilarTestCase[] = [];
    for (const row of this.candidates.all(match, Math.max(SIMILAR_CANDIDATES, limit * 10))) {
      const score = roundScore(trigramCosine(query, trigramVector(row.nl_query)));
      if (score >= minScore) scored.push({ id: row.id, nl_query: row.nl_query, score });
    }
    scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return scored.slice(0, limit);
  }

  /** The query's words that occur in some question, rarest first, within the posting budget. */
  private candidateTerms(text: string): string[] {
    const counted = similarityTerms(text)
      .map((term) => ({ term, docs: this.docCount.get(term)?.doc ?? 0 }))
      .filter((t) => t.docs > 0)
      .sort((a, b) => a.docs - b.docs);
    const chosen: string[] = [];
    let postings = 0;
    for (const { term, docs } of counted) {
      if (chosen.length >= MAX_TERMS || (chosen.length >= MIN_TERMS && postings + docs > SIMILAR_POSTING_BUDGET)) break;
      chosen.push(term);
      postings += docs;
    }
    return chosen;
  }
}
