import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveEvaluationConfig, ScorecardSchema, TestCaseSchema } from '../../domain/index.js';
import { LocalReferenceJudge } from '../../judges/index.js';
import { corpusBleu, rougeLScore, sentenceChrf } from '../../metrics/index.js';
import { startEmbeddingsStub, type EmbeddingsStub } from '../../adapters/azure/embeddingsStub.test-helpers.js';
import { referenceEmbedderFrom } from '../../app/referenceEmbedder.js';
import type { Embedder } from '../../ports/embedder.js';
import { evaluateCase } from '../pipeline/evaluateCase.js';
import { scoreReferenceMetrics } from './referenceMetrics.js';

const reference = 'Order A-1 has shipped, total 129.99.';
const answer = 'Your order A-1 shipped; the total was 129.99.';

describe('scoreReferenceMetrics', () => {
  let stub: EmbeddingsStub;
  beforeAll(async () => {
    stub = await startEmbeddingsStub();
  });
  afterAll(() => stub.close());

  it('scores the lexical metrics on 0-1, equal to the reference implementations', async () => {
    const r = await scoreReferenceMetrics(['bleu', 'rougeL', 'chrf', 'rouge1', 'rouge2'], { reference, answer });
    const by = Object.fromEntries(r.map((m) => [m.name, m.score]));
    expect(by.bleu).toBeCloseTo(corpusBleu([answer], [[reference]]).score / 100, 5);
    expect(by.rougeL).toBeCloseTo(rougeLScore(reference, answer).fmeasure, 5);
    expect(by.chrf).toBeCloseTo(sentenceChrf(answer, reference) / 100, 5);
    for (const m of r) expect(m.score!).toBeGreaterThan(0);
    expect(by.rouge1!).toBeGreaterThan(by.rouge2!);
  });

  it('skips with the reason: no reference, no answer, no embedder', async () => {
    expect(await scoreReferenceMetrics(['bleu'], { reference: undefined, answer })).toEqual([
      { name: 'bleu', score: null, skipped_reason: 'the case has no expected_nl_response to compare with' },
    ]);
    expect((await scoreReferenceMetrics(['chrf'], { reference, answer: '  ' }))[0]!.skipped_reason).toMatch(/no natural-language answer/);
    expect((await scoreReferenceMetrics(['embedding_cosine'], { reference, answer }))[0]).toMatchObject({
      score: null,
      skipped_reason: expect.stringMatching(/no embedder configured/),
    });
  });

  it('embedding_cosine through the real openai client against a local embeddings server', async () => {
    const embedder = referenceEmbedderFrom({
      EVALP_EMBEDDINGS_MODEL: 'text-embedding-3-small',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${stub.endpoint}/v1`,
      EVALP_EMBEDDINGS_DIMENSIONS: '64',
    })!;
    const [same] = await scoreReferenceMetrics(['embedding_cosine'], { reference, answer: reference }, { embedder });
    const [close] = await scoreReferenceMetrics(['embedding_cosine'], { reference, answer }, { embedder });
    const [far] = await scoreReferenceMetrics(
      ['embedding_cosine'],
      { reference, answer: 'Completely unrelated weather report for Tuesday.' },
      { embedder },
    );
    expect(same!.score).toBeCloseTo(1, 5);
    expect(close!.score!).toBeGreaterThan(far!.score!);
    expect(stub.requests.at(-1)!.body).toMatchObject({ model: 'text-embedding-3-small', dimensions: 64 });
  });

  it('an embedder fault is a skipped metric with the reason, never a score', async () => {
    const broken: Embedder = { dimensions: 2, embed: () => Promise.reject(new Error('connection refused')) };
    expect((await scoreReferenceMetrics(['embedding_cosine'], { reference, answer }, { embedder: broken }))[0]).toEqual({
      name: 'embedding_cosine',
      score: null,
      skipped_reason: 'the embedder failed: connection refused',
    });
  });

  it('no embedder settings -> undefined (the metric is skipped)', () => {
    expect(referenceEmbedderFrom({ OPENAI_API_KEY: 'k' })).toBeUndefined();
  });

  it('a run that enables them gets them on the scorecard beside the judge, and the card still validates', async () => {
    const testCase = TestCaseSchema.parse({
      id: 'c1',
      nl_query: 'Where is order A-1?',
      expected_tool_calls: [],
      expected_nl_response: reference,
      metadata: { complexity_level: 1 },
    });
    const config = resolveEvaluationConfig({
      semantics: { enabled: true, reference_metrics: ['bleu', 'rougeL', 'chrf', 'embedding_cosine'] },
    });
    const card = await evaluateCase({ runId: 'r', testCase, output: { role: 'assistant', content: answer } }, config, {
      judge: new LocalReferenceJudge(),
    });
    expect(card.reference_metrics!.map((m) => m.name)).toEqual(['bleu', 'rougeL', 'chrf', 'embedding_cosine']);
    expect(card.reference_metrics![3]!.skipped_reason).toMatch(/no embedder/);
    expect(card.stages.semantics.status).not.toBe('skipped');
    expect(ScorecardSchema.parse(card).reference_metrics).toEqual(card.reference_metrics);
    const plain = await evaluateCase(
      { runId: 'r', testCase, output: { role: 'assistant', content: answer } },
      resolveEvaluationConfig({ semantics: { enabled: true } }),
      { judge: new LocalReferenceJudge() },
    );
    expect(plain.reference_metrics).toBeUndefined();
  });
});
