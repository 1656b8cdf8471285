import { OpenAI } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_JUDGE_CRITERIA, JudgeCriterionSchema } from '../../domain/judgeCriteria.js';
import type { JudgeInput } from '../../ports/judge.js';
import { LruJudgeCache } from '../judgeCache.js';
import { JudgeError } from '../../ports/judgeError.js';
import {
  apiError,
  chatCompletion,
  startChatCompletionsServer,
  tokenLogprobs,
  type ChatCompletionsServer,
  type RecordedRequest,
  type Responder,
} from '../testing/chatCompletionsServer.test-helpers.js';
import { GEvalJudge, type GEvalJudgeOptions } from './gevalJudge.js';
import { weightedScore } from './gevalWeighting.js';

const INPUT: JudgeInput = {
  question: 'How many open orders does ACME have?',
  expected_answer: 'ACME has 42 open orders worth $1,234.50 in total.',
  expected_facts: ['42 open orders', 'total value $1,234.50'],
  actual_answer: 'There are 42 open orders for ACME, totalling 1234.5 dollars.',
  raw_data: [{ tool: 'search_orders', status: 200, data: { count: 42, total: 1234.5 } }],
};

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const criterionOf = (req: RecordedRequest) =>
  (req.body as { response_format: { json_schema: { name: string } } }).response_format.json_schema.name.replace(/^criterion_/, '');

/** A reply `{"analysis": ..., "score": k}` whose score token has the given [token, probability] alternatives. */
function scored(k: number, top?: Array<[string, number]>, analysis = 'Step 1: the facts match. Step 2: nothing missing.') {
  const content = JSON.stringify({ analysis, score: k });
  return chatCompletion(content, top ? { logprobs: tokenLogprobs(content, { at: content.lastIndexOf(String(k)), top }) } : {});
}

async function judgeWith(responder: Responder, options: Partial<GEvalJudgeOptions> = {}) {
  server = await startChatCompletionsServer(responder);
  const client = new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL });
  return new GEvalJudge({ client, model: 'gpt-4o-mini', retryDelayInMs: 1, ...options });
}

describe('GEvalJudge against a local chat-completions server returning log-probabilities', () => {
  it('weights each criterion by the token probabilities over 1-5 (G-Eval) and averages the criteria', async () => {
    // correctness: p(4)=0.6 p(5)=0.3 p(3)=0.1 -> 4.2; every other criterion: p(5)=0.5 p(4)=0.5 -> 4.5
    const judge = await judgeWith((req) =>
      criterionOf(req) === 'correctness'
        ? scored(4, [
            ['4', 0.6],
            ['5', 0.3],
            ['3', 0.1],
          ])
        : scored(5, [
            ['5', 0.5],
            ['4', 0.5],
          ]),
    );
    const v = await judge.judge(INPUT);
    expect(server!.requests).toHaveLength(5);
    const byName = Object.fromEntries(v.criteria!.map((c) => [c.name, c]));
    expect(Object.keys(byName)).toEqual(['correctness', 'completeness', 'faithfulness', 'relevance', 'clarity']);
    expect(byName.correctness!.score).toBeCloseTo(4.2, 10);
    expect(byName.correctness!.integer_score).toBe(4);
    expect(byName.correctness!.method).toBe('logprobs');
    expect(byName.correctness!.probabilities![2]).toBeCloseTo(0.1, 10);
    expect(byName.clarity!.score).toBeCloseTo(4.5, 10);
    // semantic score: mean (4.2 + 4 x 4.5) / 5 = 4.44 on 1-5 -> (4.44 - 1) / 4 = 0.86
    expect(v.score).toBeCloseTo(0.86, 10);
    expect(v.confidence).toBeCloseTo(1, 10);
    expect(v.rubric_id).toBe(judge.rubricId);
    expect(v.input_tokens).toBe(500);
    // the request: analysis before score, logprobs asked for, the API data shown for faithfulness
    const body = server!.requests[0]!.body as Record<string, unknown> & {
      messages: Array<{ content: string }>;
      response_format: { json_schema: { schema: { properties: object } } };
    };
    expect(body).toMatchObject({ logprobs: true, top_logprobs: 5, temperature: 0 });
    expect(Object.keys(body.response_format.json_schema.schema.properties)).toEqual(['analysis', 'score']);
    expect(body.messages[0]!.content).toContain('Evaluation steps:');
    expect(body.messages[1]!.content).toContain('<api_data>');
  });

  it('uses the integer when the reply has no log-probabilities', async () => {
    const judge = await judgeWith(() => scored(3));
    const v = await judge.judge(INPUT);
    expect(v.criteria!.every((c) => c.method === 'integer' && c.score === 3)).toBe(true);
    expect(v.score).toBeCloseTo(0.5, 12);
    expect(v.confidence).toBe(0.5);
  });

  it('with logprobs off it does not ask for them; criteria and weights come from the config', async () => {
    const criteria = [
      JudgeCriterionSchema.parse({ ...DEFAULT_JUDGE_CRITERIA[0], weight: 3 }),
      JudgeCriterionSchema.parse({ ...DEFAULT_JUDGE_CRITERIA[4] }),
    ];
    const judge = await judgeWith((req) => (criterionOf(req) === 'correctness' ? scored(5) : scored(1)), { logprobs: false, criteria });
    const v = await judge.judge(INPUT);
    expect(server!.requests).toHaveLength(2);
    expect((server!.requests[0]!.body as Record<string, unknown>).logprobs).toBeUndefined();
    // (3 x 5 + 1 x 1) / 4 = 4 -> 0.75
    expect(v.score).toBeCloseTo(0.75, 12);
  });

  it('a criterion that keeps failing fails the verdict with every attempt billed; the cache serves repeats', async () => {
    const broken = await judgeWith((req) => (criterionOf(req) === 'clarity' ? apiError(400, 'bad request') : scored(4)));
    const error = (await broken.judge(INPUT).catch((e: unknown) => e)) as JudgeError;
    expect(error).toBeInstanceOf(JudgeError);
    expect(error.reason).toBe('http_error');
    expect(error.input_tokens).toBe(400);
    await server!.close();
    const cache = new LruJudgeCache({ maxEntries: 10 });
    const judge = await judgeWith(() => scored(4, [['4', 1]]), { cache });
    const first = await judge.judge(INPUT);
    const again = await judge.judge(INPUT);
    expect(again).toMatchObject({ cached: true, cost_usd: 0, score: first.score });
    expect(server!.requests).toHaveLength(5);
  });

  it('no reference: JudgeError no_reference without a request', async () => {
    const judge = await judgeWith(() => scored(4));
    await expect(judge.judge({ ...INPUT, expected_answer: undefined, expected_facts: [] })).rejects.toMatchObject({
      reason: 'no_reference',
    });
    expect(server!.requests).toHaveLength(0);
  });
});

describe('weightedScore', () => {
  const tok = (token: string, top: Array<[string, number]> = [[token, 1]]) => ({
    token,
    logprob: 0,
    top_logprobs: top.map(([t, p]) => ({ token: t, logprob: Math.log(p) })),
  });

  it('finds the digit token by offset, also when it carries the closing brace, and ignores non-scores', () => {
    const content = '{"analysis":"ok","score":4}';
    const tokens = [
      tok('{"analysis":"ok","score":'),
      tok('4}', [
        ['4}', 0.5],
        ['5}', 0.25],
        ['x', 0.2],
        ['45', 0.05],
      ]),
    ];
    const w = weightedScore(content, tokens)!;
    // 4 x 0.5 + 5 x 0.25 over mass 0.75
    expect(w.score).toBeCloseTo((4 * 0.5 + 5 * 0.25) / 0.75, 12);
    expect(w.mass).toBeCloseTo(0.75, 12);
  });

  it('keeps the text before the digit when a token spans it (": 4")', () => {
    const content = '{"score": 2}';
    const tokens = [
      tok('{"score"'),
      tok(': 2', [
        [': 2', 0.7],
        [': 1', 0.3],
        ['2', 0.9],
      ]),
      tok('}'),
    ];
    expect(weightedScore(content, tokens)!.score).toBeCloseTo(1.7, 12);
  });

  it('null without log-probabilities or a score', () => {
    expect(weightedScore('{"score": 3}', null)).toBeNull();
    expect(weightedScore('{"analysis": "x"}', [tok('{"analysis": "x"}')])).toBeNull();
  });
});
