import type { ReferenceMetricName, ReferenceMetricResult } from '../../domain/index.js';
import { cosineSimilarity, rougeLScore, rougeN, sentenceBleu, sentenceChrf } from '../../metrics/index.js';
import type { Embedder } from '../../ports/index.js';

const LEXICAL: Record<Exclude<ReferenceMetricName, 'embedding_cosine'>, (answer: string, reference: string) => number> = {
  bleu: (answer, reference) => sentenceBleu(answer, [reference]).score / 100,
  rouge1: (answer, reference) => rougeN(reference, answer, 1).fmeasure,
  rouge2: (answer, reference) => rougeN(reference, answer, 2).fmeasure,
  rougeL: (answer, reference) => rougeLScore(reference, answer).fmeasure,
  chrf: (answer, reference) => sentenceChrf(answer, reference) / 100,
};

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

/**
 * The reference metrics a run enabled, for one answer against the case's expected_nl_response. Never throws for
 * missing input or an embedder fault: the metric gets score null and the reason (an infrastructure fault must not
 * look like a bad answer). Only an abort is rethrown.
 */
export async function scoreReferenceMetrics(
  names: readonly ReferenceMetricName[],
  input: { reference: string | undefined; answer: string | null },
  options: { embedder?: Embedder; abortSignal?: AbortSignal } = {},
): Promise<ReferenceMetricResult[]> {
  const unique = [...new Set(names)];
  const reference = input.reference?.trim() ? input.reference : undefined;
  const answer = input.answer?.trim() ? input.answer : undefined;
  const results: ReferenceMetricResult[] = [];
  for (const name of unique) {
    if (!reference) {
      results.push({ name, score: null, skipped_reason: 'the case has no expected_nl_response to compare with' });
    } else if (!answer) {
      results.push({ name, score: null, skipped_reason: 'the target gave no natural-language answer' });
    } else if (name === 'embedding_cosine') {
      results.push(await embeddingCosine(answer, reference, options));
    } else {
      results.push({ name, score: round(LEXICAL[name](answer, reference)) });
    }
  }
  return results;
}

async function embeddingCosine(
  answer: string,
  reference: string,
  options: { embedder?: Embedder; abortSignal?: AbortSignal },
): Promise<ReferenceMetricResult> {
  const name = 'embedding_cosine';
  if (!options.embedder) {
    return {
      name,
      score: null,
      skipped_reason: 'no embedder configured (set EVALP_EMBEDDINGS_MODEL with OPENAI_API_KEY, or AZURE_OPENAI_EMBEDDINGS_DEPLOYMENT)',
    };
  }
  try {
    const [a, b] = await options.embedder.embed([answer, reference], options.abortSignal ? { abortSignal: options.abortSignal } : {});
    return { name, score: round(Math.max(-1, Math.min(1, cosineSimilarity(a!, b!)))) };
  } catch (error) {
    if (options.abortSignal?.aborted) throw error;
    return { name, score: null, skipped_reason: `the embedder failed: ${(error as Error).message}` };
  }
}
