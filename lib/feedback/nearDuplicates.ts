import type { FeedbackCandidate, FeedbackNeighbour, TestCase } from '../domain/index.js';
import type { TestCaseStore } from '../ports/index.js';
import { LISTED_SIMILARITY, NEAR_DUPLICATE_SIMILARITY, questionSimilarity, sameTools, toolSet } from './questionSimilarity.js';

/** Existing cases the store's own near-duplicate search proposes, rescored here. */
const CASES_PROPOSED = 20;
const CANDIDATES_LISTED = 5;

const questionOfCase = (c: TestCase): string => c.nl_query || c.turns?.[0]?.user || '';
const toolsOfCase = (c: TestCase): string[] =>
  toolSet([...c.expected_tool_calls, ...(c.turns ?? []).flatMap((t) => t.expected_tool_calls)]);

function neighbour(id: string, question: string, similarity: number, same: boolean): FeedbackNeighbour {
  return { id, question, similarity, same_tools: same, near_duplicate: same && similarity >= NEAR_DUPLICATE_SIMILARITY };
}

/** Best first: near-duplicates, then by similarity, then by id. */
const byCloseness = (a: FeedbackNeighbour, b: FeedbackNeighbour): number =>
  Number(b.near_duplicate) - Number(a.near_duplicate) || b.similarity - a.similarity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export interface NearestCase {
  nearest: FeedbackNeighbour | null;
  /** the nearest same-tools case's category, to infer the candidate's */
  category: string | undefined;
}

/**
 * The existing case nearest to a question: the test-case store's near-duplicate search (embedded: trigram cosine
 * over a full-text pre-selection; Azure: vector search in AI Search) proposes up to 20 cases with any resemblance,
 * each is rescored with the candidates' own similarity and tool-set rule, and the closest scoring at least
 * LISTED_SIMILARITY is named (null when none).
 */
export async function nearestExistingCase(question: string, tools: readonly string[], testCases: TestCaseStore): Promise<NearestCase> {
  const proposed = await testCases.findSimilarTestCases(question, { limit: CASES_PROPOSED, minScore: 0.2 });
  if (proposed.length === 0) return { nearest: null, category: undefined };
  const cases = await testCases.getTestCases(proposed.map((p) => p.id));
  const scored = cases
    .map((c) => ({
      c,
      n: neighbour(c.id, questionOfCase(c), questionSimilarity(question, questionOfCase(c)), sameTools(tools, toolsOfCase(c))),
    }))
    .filter((x) => x.n.similarity >= LISTED_SIMILARITY)
    .sort((a, b) => byCloseness(a.n, b.n));
  const best = scored[0];
  return { nearest: best?.n ?? null, category: best?.n.same_tools ? best.c.metadata.category : undefined };
}

export interface CandidateNeighbours {
  similar: FeedbackNeighbour[];
  /** the group of the nearest near-duplicate candidate, or undefined (the candidate starts its own) */
  group_id: string | undefined;
}

/** The pending candidates most similar to a question (at most 5 listed), and the group it joins. */
export function similarCandidates(
  question: string,
  tools: readonly string[],
  pending: ReadonlyArray<Pick<FeedbackCandidate, 'id' | 'group_id' | 'tools' | 'draft'>>,
): CandidateNeighbours {
  const groups = new Map<string, string>();
  const scored: FeedbackNeighbour[] = [];
  for (const other of pending) {
    const q = other.draft.nl_query ?? other.draft.turns?.[0]?.user ?? '';
    const n = neighbour(other.id, q, questionSimilarity(question, q), sameTools(tools, other.tools));
    if (n.similarity < LISTED_SIMILARITY) continue;
    scored.push(n);
    groups.set(other.id, other.group_id);
  }
  scored.sort(byCloseness);
  const best = scored[0];
  return { similar: scored.slice(0, CANDIDATES_LISTED), group_id: best?.near_duplicate ? groups.get(best.id) : undefined };
}
