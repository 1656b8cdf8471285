import { describe, expect, it } from 'vitest';
import { resolveEvaluationConfig, TestCaseSchema, type TestCaseInput, type ToolCatalog } from '../../domain/index.js';
import { ExpectedDataProvider, RecordedApiProvider } from '../execution/index.js';
import { InMemoryCassette, cassetteEntryFor } from '../../ports/cassette.js';
import { LocalReferenceJudge } from '../../judges/index.js';
import { JudgeError } from '../../ports/judgeError.js';
import { type Judge } from '../../ports/judge.js';
import { evaluateCase } from './evaluateCase.js';
import { finishCase, startCase } from './steps.js';
import { nextStage } from './caseState.js';

const catalog: ToolCatalog = {
  name: 'shop',
  tool_schema_version: '1',
  tools: [
    {
      name: 'get_order',
      description: '',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    },
  ],
};
const tc = (extra: Partial<TestCaseInput> = {}) =>
  TestCaseSchema.parse({
    id: 'c1',
    nl_query: 'Where is order A-1?',
    expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: 'A-1' } }],
    expected_raw_data: [{ order_id: 'A-1', status: 'shipped', total: 129.99 }],
    expected_nl_response: 'Order A-1 has shipped, total 129.99.',
    metadata: { category: 'orders', tags: ['orders'], complexity_level: 2 },
    ...extra,
  });
const message = (args: string, content: string | null = 'Order A-1 has shipped, total 129.99.') => ({
  role: 'assistant',
  content,
  tool_calls: [{ id: 'x', type: 'function', function: { name: 'get_order', arguments: args } }],
});
const deps = { catalogFor: () => catalog, apiProvider: new ExpectedDataProvider(), judge: new LocalReferenceJudge() };
const ts = '2026-11-22T00:00:00.000Z';

describe('evaluateCase: the waterfall', () => {
  it('runs all four stages and passes a right answer', async () => {
    const card = await evaluateCase(
      { runId: 'r', testCase: tc(), output: message('{"order_id":"A-1"}'), timestamp: ts },
      resolveEvaluationConfig({ profile: 'nightly' }),
      deps,
    );
    expect(Object.values(card.stages).map((s) => s.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect([card.overall_passed, card.overall_score, card.failing_stage, card.api_calls_made]).toEqual([true, 1, undefined, 1]);
    expect(card.tool_results).toEqual([{ tool_name: 'get_order', expected_calls: 1, actual_calls: 1, matched_calls: 1, passed: true }]);
    expect([card.category, card.tags, card.complexity_level, card.timestamp]).toEqual(['orders', ['orders'], 2, ts]);
  });

  it('stops at the syntax gate: later stages skipped, score 0', async () => {
    const card = await evaluateCase(
      { runId: 'r', testCase: tc(), output: message('{"order_id": '), timestamp: ts },
      resolveEvaluationConfig({ profile: 'nightly' }),
      deps,
    );
    expect(Object.values(card.stages).map((s) => s.status)).toEqual(['failed', 'skipped', 'skipped', 'skipped']);
    expect([card.overall_passed, card.overall_score, card.failing_stage, card.error_code]).toEqual([
      false,
      0,
      'syntax',
      'invalid_arguments_json',
    ]);
    expect(card.stages.execution.message).toBe('not run: the syntax gate failed');
  });

  it('records a logic failure and still runs execution and semantics', async () => {
    const provider = new RecordedApiProvider({
      cassette: new InMemoryCassette([
        cassetteEntryFor(
          { tool_name: 'get_order', arguments: { order_id: 'A-2' } },
          200,
          { order_id: 'A-2', status: 'open', total: 5 },
          new Date(ts),
        ),
      ]),
      mode: 'replay',
    });
    const card = await evaluateCase(
      { runId: 'r', testCase: tc(), output: message('{"order_id":"A-2"}', 'Order A-2 is open.'), timestamp: ts },
      resolveEvaluationConfig({ profile: 'nightly' }),
      { ...deps, apiProvider: provider },
    );
    expect(Object.values(card.stages).map((s) => s.status)).toEqual(['passed', 'failed', 'failed', 'failed']);
    expect(card.stages.execution.error_code).toBe('data_mismatch');
    expect([card.failing_stage, card.error_code]).toEqual(['logic', 'argument_mismatch']);
    expect(card.overall_score).toBeGreaterThan(0);
    expect(card.overall_score).toBeLessThan(1);
  });

  it('skips disabled stages with the reason (ci profile)', async () => {
    const card = await evaluateCase(
      { runId: 'r', testCase: tc(), output: message('{"order_id":"A-1"}') },
      resolveEvaluationConfig({ profile: 'ci' }),
      {},
    );
    expect([card.stages.execution.message, card.stages.semantics.message]).toEqual([
      'disabled by the evaluation config',
      'disabled by the evaluation config',
    ]);
    expect(card.overall_passed).toBe(true);
  });

  it('a judge that cannot score blocks the pass without scoring 0', async () => {
    const broken: Judge = {
      name: 'broken',
      method: 'llm',
      judge: () => Promise.reject(new JudgeError('judge returned garbage', { reason: 'invalid_output', attempts: 5 })),
    };
    const card = await evaluateCase(
      { runId: 'r', testCase: tc(), output: message('{"order_id":"A-1"}') },
      resolveEvaluationConfig({ semantics: { enabled: true } }),
      { ...deps, judge: broken },
    );
    expect([card.stages.semantics.status, card.stages.semantics.score, card.overall_passed, card.failing_stage, card.error_code]).toEqual([
      'error',
      null,
      false,
      'semantics',
      'judge_failed',
    ]);
    expect(card.overall_score).toBe(1);
  });

  it('an error that is not a verdict (e.g. a bug or an abort) propagates', async () => {
    const buggy: Judge = { name: 'buggy', method: 'llm', judge: () => Promise.reject(new TypeError('boom')) };
    await expect(
      evaluateCase(
        { runId: 'r', testCase: tc(), output: message('{"order_id":"A-1"}') },
        resolveEvaluationConfig({ semantics: { enabled: true } }),
        { ...deps, judge: buggy },
      ),
    ).rejects.toThrow('boom');
  });

  it('throws for an enabled stage without its port (broken configuration)', async () => {
    await expect(
      evaluateCase({ runId: 'r', testCase: tc(), output: '' }, resolveEvaluationConfig({ execution: { enabled: true } }), {}),
    ).rejects.toThrow(/no ApiProvider/);
  });

  it('abstention: a plain answer to a no-call case passes', async () => {
    const card = await evaluateCase(
      { runId: 'r', testCase: tc({ expected_tool_calls: [], expected_raw_data: [] }), output: 'You are welcome!' },
      resolveEvaluationConfig({}),
      {},
    );
    expect([card.overall_passed, card.generated_nl_response, card.generated_tool_calls]).toEqual([true, 'You are welcome!', []]);
  });
});

describe('split steps (what the stage workers run across queues)', () => {
  it('a started case survives JSON (queue message) and finishes to the same scorecard', async () => {
    const config = resolveEvaluationConfig({ profile: 'ci' });
    const state = startCase({ runId: 'r', testCase: tc(), output: message('{"order_id":"A-1"}'), catalog }, config);
    expect(nextStage(state, { execution: false, semantics: false })).toBe('done');
    const viaQueue = JSON.parse(JSON.stringify(state)) as typeof state;
    expect(finishCase(viaQueue, tc(), config, ts)).toEqual(finishCase(state, tc(), config, ts));
  });

  it('nextStage walks execution then semantics when both are enabled', () => {
    const state = startCase(
      { runId: 'r', testCase: tc(), output: message('{"order_id":"A-1"}') },
      resolveEvaluationConfig({ profile: 'nightly' }),
    );
    expect(nextStage(state, { execution: true, semantics: true })).toBe('execution');
    const afterExec = {
      ...state,
      stages: { ...state.stages, execution: { ...state.stages.execution, status: 'passed' as const, message: 'ok' } },
    };
    expect(nextStage(afterExec, { execution: true, semantics: true })).toBe('semantics');
  });
});
