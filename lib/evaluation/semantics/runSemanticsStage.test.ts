import { OpenAI } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { TestCaseSchema, type TestCase, type TestCaseInput } from '../../domain/index.js';
import type { Judge, JudgeInput, JudgeVerdict } from '../../ports/judge.js';
import { JudgeError } from '../../ports/judgeError.js';
import { LocalReferenceJudge } from '../../judges/localReference/localReferenceJudge.js';
import { OpenAIJudge } from '../../judges/openai/openaiJudge.js';
import {
  chatCompletion,
  startChatCompletionsServer,
  type ChatCompletionsServer,
} from '../../judges/testing/chatCompletionsServer.test-helpers.js';
import { runSemanticsStage } from './runSemanticsStage.js';

const testCase = (over: Partial<TestCaseInput> = {}): TestCase =>
  TestCaseSchema.parse({
    id: 'case-1',
    nl_query: 'How many open orders does ACME have?',
    expected_tool_calls: [],
    expected_nl_response: 'ACME has 42 open orders.',
    expected_facts: ['42 open orders'],
    ...over,
  });

/** A test double of the Judge port: replies with a fixed verdict or error, and records what it was asked. */
class ScriptedJudge implements Judge {
  readonly name = 'scripted';
  readonly method = 'llm' as const;
  readonly inputs: JudgeInput[] = [];
  constructor(private readonly outcome: Partial<JudgeVerdict> | Error) {}
  async judge(input: JudgeInput): Promise<JudgeVerdict> {
    this.inputs.push(input);
    if (this.outcome instanceof Error) throw this.outcome;
    return {
      score: 1,
      reasoning: 'r',
      confidence: 1,
      model: 'm',
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      cached: false,
      method: 'llm',
      ...this.outcome,
    };
  }
}

const local = new LocalReferenceJudge();
const options = { judge: local, passThreshold: 0.7 };
const withoutDuration = (r: { duration_ms: number }) => ({ ...r, duration_ms: 0 });

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('runSemanticsStage', () => {
  it.each([
    ['no expected answer and no facts', testCase({ expected_nl_response: undefined, expected_facts: [] })],
    ['a blank expected answer and blank facts', testCase({ expected_nl_response: '  ', expected_facts: [''] })],
  ])('skips a case with %s (no_reference, score null), whatever the answer', async (_name, tc) => {
    const output = await runSemanticsStage(tc, 'ACME has 42 open orders.', options);
    expect({ ...output, result: withoutDuration(output.result) }).toEqual({
      result: {
        stage: 'semantics',
        status: 'skipped',
        passed: false,
        score: null,
        error_code: 'no_reference',
        message: 'Case case-1 has no expected_nl_response or expected_facts to judge against; add one to enable stage 4 for it.',
        details: { judge: 'local-reference-heuristic', method: 'heuristic' },
        duration_ms: 0,
      },
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
    });
  });

  it.each([null, '', '  \n'])('fails a missing answer (%j) with no_answer and score 0', async (answer) => {
    const output = await runSemanticsStage(testCase(), answer, options);
    expect(withoutDuration(output.result)).toEqual({
      stage: 'semantics',
      status: 'failed',
      passed: false,
      score: 0,
      error_code: 'no_answer',
      message: 'The target gave no natural-language answer to judge; stage 4 needs the final text reply.',
      details: { judge: 'local-reference-heuristic', method: 'heuristic' },
      duration_ms: 0,
    });
  });

  it('passes an answer the judge scores at or above the threshold', async () => {
    const output = await runSemanticsStage(testCase(), 'ACME has 42 open orders.', options);
    expect(withoutDuration(output.result)).toEqual({
      stage: 'semantics',
      status: 'passed',
      passed: true,
      score: 1,
      message: 'Semantic score 1.00 meets the pass threshold 0.70 (judge local-reference-heuristic).',
      details: {
        judge: 'local-reference-heuristic',
        method: 'heuristic',
        model: 'local-reference-heuristic',
        reasoning: expect.stringContaining('numbers 1/1 found; key facts 1/1 present') as string,
        confidence: 0.4,
        cached: false,
      },
      duration_ms: 0,
    });
    expect(output.result.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('fails a low score with low_semantic_score and the reasoning in the message', async () => {
    const output = await runSemanticsStage(testCase(), 'ACME has 7 open orders.', options);
    expect(output.result).toMatchObject({ status: 'failed', passed: false, error_code: 'low_semantic_score' });
    expect(output.result.score).toBeLessThan(0.7);
    expect(output.result.message).toMatch(
      /^Semantic score 0\.\d\d is below the pass threshold 0\.70 \(judge local-reference-heuristic\): Heuristic, not an LLM: numbers 0\/1 found \(missing: 42\)/,
    );
  });

  it.each([
    [0.7, 0.7, 'passed'],
    [0.6999, 0.7, 'failed'],
    [0, 0, 'passed'],
  ] as const)('score %f against threshold %f is %s', async (score, passThreshold, status) => {
    const output = await runSemanticsStage(testCase(), 'x', { judge: new ScriptedJudge({ score }), passThreshold });
    expect(output.result.status).toBe(status);
  });

  it('hands the judge the case, the answer and the context, and reports its tokens, cost and notes', async () => {
    const judge = new ScriptedJudge({ score: 0.9, input_tokens: 120, output_tokens: 30, cost_usd: 0.001, notes: ['n'], cached: true });
    const output = await runSemanticsStage(testCase({ expected_facts: ['42 open orders', ' '] }), 'It has 42.', {
      judge,
      passThreshold: 0.5,
      toolCalls: [{ tool_name: 'list_orders', arguments: {} }],
      rawData: [{ open: 42 }],
    });
    expect(judge.inputs).toEqual([
      {
        question: 'How many open orders does ACME have?',
        expected_answer: 'ACME has 42 open orders.',
        expected_facts: ['42 open orders'],
        actual_answer: 'It has 42.',
        tool_calls: [{ tool_name: 'list_orders', arguments: {} }],
        raw_data: [{ open: 42 }],
      },
    ]);
    expect([output.input_tokens, output.output_tokens, output.cost_usd]).toEqual([120, 30, 0.001]);
    expect(output.result.details).toEqual({
      judge: 'scripted',
      method: 'llm',
      model: 'm',
      reasoning: 'r',
      confidence: 1,
      cached: true,
      notes: ['n'],
    });
  });

  it('records a judge that gave up as error/judge_failed with score null, counting the tokens it spent', async () => {
    server = await startChatCompletionsServer(() => chatCompletion('not json', { promptTokens: 50, completionTokens: 5 }));
    const judge = new OpenAIJudge({
      client: new OpenAI({ apiKey: 'k', baseURL: server.baseURL }),
      model: 'gpt-4o-mini',
      maxRetries: 1,
      retryDelayInMs: 1,
    });
    const output = await runSemanticsStage(testCase(), 'ACME has 42 open orders.', { judge, passThreshold: 0.7 });
    expect(withoutDuration(output.result)).toEqual({
      stage: 'semantics',
      status: 'error',
      passed: false,
      score: null,
      error_code: 'judge_failed',
      message:
        'Judge openai:gpt-4o-mini could not score the answer: judge model "gpt-4o-mini" gave no valid verdict after 2 attempt(s): the reply is not JSON: "not json"',
      details: { judge: 'openai:gpt-4o-mini', method: 'llm', reason: 'invalid_output', attempts: 2 },
      duration_ms: 0,
    });
    expect([output.input_tokens, output.output_tokens, output.cost_usd]).toEqual([100, 10, (100 * 0.15 + 10 * 0.6) / 1e6]);
  });

  it.each([
    ['an out-of-range score', new ScriptedJudge({ score: 1.2 })],
    ['a NaN score', new ScriptedJudge({ score: Number.NaN })],
  ])('records %s from a judge as judge_failed', async (_name, judge) => {
    const output = await runSemanticsStage(testCase(), 'x', { judge, passThreshold: 0.7 });
    expect(output.result).toMatchObject({ status: 'error', score: null, error_code: 'judge_failed' });
  });

  it('maps a judge that finds no usable reference to skipped/no_reference', async () => {
    const output = await runSemanticsStage(testCase({ expected_nl_response: undefined, expected_facts: ['...'] }), 'x', options);
    expect(output.result).toMatchObject({ status: 'skipped', score: null, error_code: 'no_reference' });
  });

  it.each([
    ['an abort', new JudgeError('aborted', { reason: 'aborted' })],
    ['a non-judge failure', new TypeError('cache is broken')],
  ])('rethrows %s', async (_name, error) => {
    await expect(runSemanticsStage(testCase(), 'x', { judge: new ScriptedJudge(error), passThreshold: 0.7 })).rejects.toBe(error);
  });

  it.each([-0.1, 1.1, Number.NaN])('throws for a pass threshold of %f', async (passThreshold) => {
    await expect(runSemanticsStage(testCase(), 'x', { judge: local, passThreshold })).rejects.toThrow(RangeError);
  });
});
