import type { SqlParameter } from '@azure/cosmos';
import type { FindSimilarOptions, SimilarTestCase } from '../../ports/index.js';
import { roundScore, similarityTerms, trigramCosine, trigramVector } from '../shared/index.js';
import { foldedWords } from './cosmosSearchText.js';
import type { WhereClause } from './cosmosTestCaseQuery.js';

/** At most this many candidates are rescored per query (the scan stops there). */
export const SIMILAR_SCAN_LIMIT = 50_000;
const MAX_TERMS = 16;

export interface SimilarCandidate {
  case_id: string;
  nl_query: string;
}

/** The limit and minimum score of a near-duplicate query, clamped as the port documents (1-100, 0-1). */
export function similarWindow(options: FindSimilarOptions): { limit: number; minScore: number } {
  return {
    limit: Math.min(100, Math.max(1, Math.trunc(options.limit ?? 10))),
    minScore: Math.min(1, Math.max(0, options.minScore ?? 0.5)),
  };
}

/** Keeps the best `limit` of scored cases: score descending, then id. */
export function bestSimilar(scored: SimilarTestCase[], limit: number): SimilarTestCase[] {
  scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return scored.slice(0, limit);
}

/**
 * Near-duplicates without AI Search: the cases whose text shares a word with `text` (CONTAINS over the folded
 * `search` field, the words ORed), each rescored with the embedded search's character-trigram cosine
 * (lib/adapters/embedded/testCaseSimilarity.ts), so scores mean the same on both backends. A scan: it reads every
 * candidate's question, up to SIMILAR_SCAN_LIMIT (a question made of common words stops there). With AI Search
 * configured, vector search finds the candidates instead (searchIndexedTestCaseStore.ts).
 */
export async function findSimilarByScan(
  text: string,
  options: FindSimilarOptions,
  scan: (where: WhereClause) => AsyncIterable<SimilarCandidate[]>,
): Promise<SimilarTestCase[]> {
  const { limit, minScore } = similarWindow(options);
  const terms = similarityTerms(text).flatMap(foldedWords).slice(0, MAX_TERMS);
  if (terms.length === 0) return [];
  const parameters: SqlParameter[] = terms.map((term, i) => ({ name: `@w${i}`, value: ` ${term} ` }));
  const where = ` WHERE (${parameters.map((p) => `CONTAINS(c.search, ${p.name})`).join(' OR ')})`;
  const query = trigramVector(text);
  const scored: SimilarTestCase[] = [];
  let seen = 0;
  for await (const page of scan({ where, parameters })) {
    for (const candidate of page) {
      const score = roundScore(trigramCosine(query, trigramVector(candidate.nl_query)));
      if (score >= minScore) scored.push({ id: candidate.case_id, nl_query: candidate.nl_query, score });
    }
    seen += page.length;
    if (seen >= SIMILAR_SCAN_LIMIT) break;
  }
  return bestSimilar(scored, limit);
}
