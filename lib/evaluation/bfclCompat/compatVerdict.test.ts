import { describe, expect, it } from 'vitest';
import { resolveEvaluationConfig, TestCaseSchema, type BfclReference } from '../../domain/index.js';
import { evaluateCase } from '../pipeline/evaluateCase.js';
import { finishCase, startCase, startFailedCase } from '../pipeline/steps.js';

const reference: BfclReference = {
  category: 'simple_python',
  function: [
    {
      name: 'f',
      description: '',
      parameters: { type: 'dict', properties: { x: { type: 'integer' }, s: { type: 'string' } }, required: ['x'] },
    },
  ],
  ground_truth: [{ f: { x: [3], s: ['New York', ''] } }],
};
const testCase = TestCaseSchema.parse({
  id: 'simple_python_9',
  nl_query: 'q',
  expected_tool_calls: [{ tool_name: 'f', arguments: { x: 3, s: { $optional: true, $one_of: ['New York'] } } }],
  coercion: 'bfcl',
  metadata: { category: 'simple_python', bfcl: reference },
});
const compat = resolveEvaluationConfig({ compat: 'bfcl' });
const plain = resolveEvaluationConfig({});
const out = (args: string) => `[{"name": "f", "arguments": ${args}}]`;
const score = (output: string, config = compat) =>
  evaluateCase({ runId: 'r', testCase, output, timestamp: '2026-01-01T00:00:00.000Z' }, config);

describe('compatVerdictOf through the pipeline (compat "bfcl" in the config)', () => {
  it('BFCL passes what the default fails: passed, score 1, no failing stage, the default rule kept', async () => {
    const card = await score(out('{"x": 3, "s": ""}'));
    expect(card).toMatchObject({ overall_passed: true, overall_score: 1, outcome: 'passed' });
    expect(card.failing_stage).toBeUndefined();
    expect(card.compat).toEqual({
      mode: 'bfcl',
      passed: true,
      rule: 'valid',
      message: '',
      default_passed: false,
      default_rule: 'logic argument_mismatch',
      default_message: expect.stringContaining('/s'),
    });
    expect((await score(out('{"x": 3, "s": ""}'), plain)).compat).toBeUndefined();
  });

  it('BFCL fails what the default passes: the failing stage and error code come from its rule', async () => {
    // BFCL's "variable" rule: an answer of another type than declared is compared without normalisation
    const variable = TestCaseSchema.parse({
      ...testCase,
      expected_tool_calls: [{ tool_name: 'f', arguments: { x: 'Year' } }],
      metadata: { category: 'simple_python', bfcl: { ...reference, ground_truth: [{ f: { x: ['Year'] } }] } },
    });
    const input = { runId: 'r', testCase: variable, output: out('{"x": "year"}') };
    expect((await evaluateCase(input, plain)).overall_passed).toBe(true);
    const card = await evaluateCase(input, compat);
    expect(card).toMatchObject({
      overall_passed: false,
      overall_score: 0,
      outcome: 'failed',
      failing_stage: 'logic',
      error_code: 'argument_mismatch',
    });
    expect(card.compat).toMatchObject({ passed: false, rule: 'value_error:others', default_passed: true });
    expect((await score(out('{"x": 3.0}'))).compat).toMatchObject({ passed: false, rule: 'type_error:simple' });
  });

  it('a parse failure is a decoding failure; stage-split workers (startCase, finishCase) give the same card', async () => {
    const broken = '[{"name": "f", "arguments": {"x": ';
    const card = await score(broken);
    expect(card.compat).toMatchObject({ passed: false, rule: 'ast_decoder:decoder_failed' });
    const split = finishCase(
      startCase({ runId: 'r', testCase, output: out('{"x": 3, "s": ""}') }, compat),
      testCase,
      compat,
      '2026-01-01T00:00:00.000Z',
    );
    expect(split.compat).toEqual((await score(out('{"x": 3, "s": ""}'))).compat);
  });

  it('a case not scored (target failure) and a case without a BFCL reference are left as they are', async () => {
    const failed = finishCase(
      startFailedCase({ runId: 'r', testCase }, { error_code: 'target_timeout', message: 'timeout' }, compat),
      testCase,
      compat,
    );
    expect(failed.compat).toBeUndefined();
    expect(failed.outcome).toBe('not_scored');
    const native = TestCaseSchema.parse({ ...testCase, metadata: { category: 'x' } });
    const card = await evaluateCase({ runId: 'r', testCase: native, output: out('{"x": 3, "s": ""}') }, compat);
    expect(card.compat).toBeUndefined();
    expect(card.overall_passed).toBe(false);
  });
});
