import { describe, expect, it } from 'vitest';
import { COERCION_POLICIES } from '../../domain/coercionPolicy.js';
import type { LogicDetails } from '../../domain/diff.js';
import type { StageResult } from '../../domain/stageResult.js';
import type { TestCase } from '../../domain/testCase.js';
import type { ToolCall } from '../../domain/toolCall.js';
import { runLogicStage, type LogicStageOutput } from './runLogicStage.js';
import { call, testCase, WEATHER_CATALOG } from './testCases.test-helpers.js';

const policy = COERCION_POLICIES.default;
const run = (actual: ToolCall[], tc: TestCase, withCatalog = false): LogicStageOutput =>
  runLogicStage(actual, tc, withCatalog ? { policy, catalog: WEATHER_CATALOG } : { policy });

function failed(score: number, error_code: StageResult['error_code'], message: string, details: LogicDetails): StageResult {
  return {
    stage: 'logic',
    status: 'failed',
    passed: false,
    score,
    error_code,
    message,
    details,
    duration_ms: expect.any(Number) as number,
  };
}
function passed(details: LogicDetails): StageResult {
  return { stage: 'logic', status: 'passed', passed: true, score: 1, details, duration_ms: expect.any(Number) as number };
}

const paris = { tool_name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } };

describe('runLogicStage', () => {
  it('passes an exact match', () => {
    const out = run([call('get_weather', { city: 'Paris', unit: 'celsius' })], testCase({ expected_tool_calls: [paris] }));
    expect(out).toEqual({
      result: passed({
        call_set: -1,
        precision: 1,
        recall: 1,
        f1: 1,
        calls: [{ expected_index: 0, actual_index: 0, tool_name: 'get_weather', status: 'matched', argument_score: 1, entries: [] }],
      }),
      assignment: [{ expected_index: 0, actual_index: 0 }],
      call_set: -1,
    });
  });

  it('matches parallel calls optimally where BFCL matches greedily (A accepts x in {1,2}, B accepts 1; output [x=1, x=2])', () => {
    const tc = testCase({
      expected_tool_calls: [
        { tool_name: 'f', arguments: { x: { $one_of: [1, 2] } } },
        { tool_name: 'f', arguments: { x: 1 } },
      ],
    });
    const out = run([call('f', { x: 1 }), call('f', { x: 2 })], tc);
    expect(out.result.passed).toBe(true);
    expect(out.assignment).toEqual([
      { expected_index: 0, actual_index: 1 },
      { expected_index: 1, actual_index: 0 },
    ]);
  });

  it('reports a wrong argument and a missing call in one actionable message', () => {
    const tc = testCase({ expected_tool_calls: [paris, { tool_name: 'get_forecast', arguments: { city: 'Paris' } }] });
    const out = run([call('get_weather', { city: 'Paris', unit: 'fahrenheit' })], tc);
    expect(out.result).toEqual(
      failed(1 / 3, 'missing_call', 'get_weather: /unit expected "celsius", got "fahrenheit"; 1 expected call missing: get_forecast', {
        call_set: -1,
        precision: 0.5,
        recall: 0.25,
        f1: 1 / 3,
        calls: [
          {
            expected_index: 0,
            actual_index: 0,
            tool_name: 'get_weather',
            status: 'partial',
            argument_score: 0.5,
            entries: [{ path: '/unit', kind: 'mismatch', expected: 'celsius', actual: 'fahrenheit' }],
          },
          { expected_index: 1, actual_index: null, tool_name: 'get_forecast', status: 'missing', argument_score: 0, entries: [] },
        ],
      }),
    );
  });
});

interface Verdict {
  passed: boolean;
  score: number;
  error_code?: string;
  message?: string;
  call_set: number;
  calls: string[];
}

/** The parts of the output a table row checks: verdict, score, code, message, chosen set and per-call status. */
function verdictOf(out: LogicStageOutput): Verdict {
  const details = out.result.details as LogicDetails;
  const verdict: Verdict = {
    passed: out.result.passed,
    score: out.result.score!,
    call_set: out.call_set,
    calls: details.calls.map((c) => `${c.tool_name}:${c.status}`),
  };
  if (out.result.error_code !== undefined) verdict.error_code = out.result.error_code;
  if (out.result.message !== undefined) verdict.message = out.result.message;
  return verdict;
}

describe('runLogicStage: verdicts, error codes and messages', () => {
  it.each<[string, Parameters<typeof testCase>[0], ToolCall[], boolean, Verdict]>([
    [
      'abstention: no call expected, none made',
      { expected_tool_calls: [] },
      [],
      false,
      { passed: true, score: 1, call_set: -1, calls: [] },
    ],
    [
      'abstention: no call expected, one made',
      { expected_tool_calls: [] },
      [call('get_weather', { city: 'Paris' })],
      false,
      {
        passed: false,
        score: 0,
        error_code: 'unexpected_call',
        message: 'expected no tool call (abstain), got 1: get_weather',
        call_set: -1,
        calls: ['get_weather:extra'],
      },
    ],
    [
      'no call made where one is expected',
      { expected_tool_calls: [paris] },
      [],
      false,
      {
        passed: false,
        score: 0,
        error_code: 'missing_call',
        message: '1 expected call missing: get_weather',
        call_set: -1,
        calls: ['get_weather:missing'],
      },
    ],
    [
      'an extra duplicate call',
      { expected_tool_calls: [paris] },
      [call('get_weather', { city: 'Paris', unit: 'celsius' }), call('get_weather', { city: 'Paris', unit: 'celsius' })],
      false,
      {
        passed: false,
        score: 2 / 3,
        error_code: 'extra_call',
        message: '1 unexpected call: get_weather',
        call_set: -1,
        calls: ['get_weather:matched', 'get_weather:extra'],
      },
    ],
    [
      'the wrong tool with the same arguments is never matched',
      { expected_tool_calls: [{ tool_name: 'get_forecast', arguments: { city: 'Paris' } }] },
      [call('get_weather', { city: 'Paris' })],
      false,
      {
        passed: false,
        score: 0,
        error_code: 'wrong_tool',
        message: 'wrong tool: called get_weather where get_forecast was expected',
        call_set: -1,
        calls: ['get_forecast:missing', 'get_weather:extra'],
      },
    ],
    [
      'a missing argument',
      { expected_tool_calls: [paris] },
      [call('get_weather', { city: 'Paris' })],
      false,
      {
        passed: false,
        score: 0.5,
        error_code: 'missing_argument',
        message: 'get_weather: /unit missing (expected "celsius")',
        call_set: -1,
        calls: ['get_weather:partial'],
      },
    ],
    [
      'an extra argument',
      { expected_tool_calls: [paris] },
      [call('get_weather', { city: 'Paris', unit: 'celsius', verbose: true })],
      false,
      {
        passed: false,
        score: 2 / 3,
        error_code: 'extra_argument',
        message: 'get_weather: /verbose not expected (got true)',
        call_set: -1,
        calls: ['get_weather:partial'],
      },
    ],
    [
      'allow_extra_arguments accepts arguments the case does not mention',
      { expected_tool_calls: [{ ...paris, allow_extra_arguments: true }] },
      [call('get_weather', { city: 'Paris', unit: 'celsius', verbose: true })],
      false,
      { passed: true, score: 1, call_set: -1, calls: ['get_weather:matched'] },
    ],
    [
      'a value of the wrong type',
      { expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris', days: 3 } }] },
      [call('get_weather', { city: 'Paris', days: [3] })],
      false,
      {
        passed: false,
        score: 0.5,
        error_code: 'argument_mismatch',
        message: 'get_weather: /days expected 3, got [3]',
        call_set: -1,
        calls: ['get_weather:partial'],
      },
    ],
    [
      'a missing argument outranks a wrong value',
      { expected_tool_calls: [{ tool_name: 'f', arguments: { a: 1, b: 2, c: 3, d: 4, e: 5 } }] },
      [call('f', { a: 9, b: 9, c: 9, d: 9 })],
      false,
      {
        passed: false,
        score: 0,
        error_code: 'missing_argument',
        message: 'f: /a expected 1, got 9, /b expected 2, got 9, /c expected 3, got 9, and 2 more',
        call_set: -1,
        calls: ['f:partial'],
      },
    ],
    [
      'a refused coercion is named in the message (case policy strict over the run default)',
      { expected_tool_calls: [{ tool_name: 'f', arguments: { n: 5 } }], coercion: 'strict' },
      [call('f', { n: '5' })],
      false,
      {
        passed: false,
        score: 0,
        error_code: 'argument_mismatch',
        message: 'f: /n expected 5, got "5" (numeric_string not allowed by the coercion policy)',
        call_set: -1,
        calls: ['f:partial'],
      },
    ],
    [
      'a case partial policy turns on a coercion',
      { expected_tool_calls: [{ tool_name: 'f', arguments: { s: 'New York' } }], coercion: { string_normalization: 'case_whitespace' } },
      [call('f', { s: 'new york' })],
      false,
      { passed: true, score: 1, call_set: -1, calls: ['f:matched'] },
    ],
    [
      'strict order kept',
      { expected_tool_calls: [{ tool_name: 'a' }, { tool_name: 'b' }], call_order: 'strict' },
      [call('a'), call('b')],
      false,
      { passed: true, score: 1, call_set: -1, calls: ['a:matched', 'b:matched'] },
    ],
    [
      'strict order broken: wrong_order, scored on the pairs that keep the order',
      { expected_tool_calls: [{ tool_name: 'a' }, { tool_name: 'b' }], call_order: 'strict' },
      [call('b'), call('a')],
      false,
      {
        passed: false,
        score: 0.5,
        error_code: 'wrong_order',
        message: 'calls made in the wrong order: expected a, b; got b, a',
        call_set: -1,
        calls: ['a:matched', 'b:matched'],
      },
    ],
    [
      'strict order with a missing call: missing_call, the order noted',
      { expected_tool_calls: [{ tool_name: 'a' }, { tool_name: 'b' }, { tool_name: 'c' }], call_order: 'strict' },
      [call('c'), call('a')],
      false,
      {
        passed: false,
        score: 0.4,
        error_code: 'missing_call',
        message: '1 expected call missing: b; calls also out of the required order',
        call_set: -1,
        calls: ['a:matched', 'b:missing', 'c:matched'],
      },
    ],
    [
      'any order accepts the same calls swapped',
      { expected_tool_calls: [{ tool_name: 'a' }, { tool_name: 'b' }] },
      [call('b'), call('a')],
      false,
      { passed: true, score: 1, call_set: -1, calls: ['a:matched', 'b:matched'] },
    ],
    [
      'an alternative call set that matches',
      {
        expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris' } }],
        alternative_tool_calls: [[{ tool_name: 'get_forecast', arguments: { city: 'Paris' } }]],
      },
      [call('get_forecast', { city: 'Paris' })],
      false,
      { passed: true, score: 1, call_set: 0, calls: ['get_forecast:matched'] },
    ],
    [
      'the closest alternative is reported when none passes',
      {
        expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris' } }],
        alternative_tool_calls: [[{ tool_name: 'x' }], [{ tool_name: 'get_forecast', arguments: { city: 'Paris', days: 2 } }]],
      },
      [call('get_forecast', { city: 'Paris', days: 3 })],
      false,
      {
        passed: false,
        score: 0.5,
        error_code: 'argument_mismatch',
        message: 'get_forecast: /days expected 2, got 3 (closest: alternative call set 1)',
        call_set: 1,
        calls: ['get_forecast:partial'],
      },
    ],
    [
      'ties between call sets go to the earlier set',
      {
        expected_tool_calls: [{ tool_name: 'f', arguments: { a: 1, b: 1 } }],
        alternative_tool_calls: [[{ tool_name: 'f', arguments: { a: 2, b: 2 } }]],
      },
      [call('f', { a: 1, b: 2 })],
      false,
      {
        passed: false,
        score: 0.5,
        error_code: 'argument_mismatch',
        message: 'f: /b expected 1, got 2',
        call_set: -1,
        calls: ['f:partial'],
      },
    ],
    [
      'abstaining is an acceptable alternative',
      { expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris' } }], alternative_tool_calls: [[]] },
      [],
      false,
      { passed: true, score: 1, call_set: 0, calls: [] },
    ],
    [
      'catalog: an omitted argument equals its default, an explicit default is not extra',
      { expected_tool_calls: [paris, { tool_name: 'get_weather', arguments: { city: 'Rome' } }] },
      [call('get_weather', { city: 'Paris' }), call('get_weather', { city: 'Rome', days: 1 })],
      true,
      { passed: true, score: 1, call_set: -1, calls: ['get_weather:matched', 'get_weather:matched'] },
    ],
    [
      'catalog: enum case and an unordered array',
      {
        expected_tool_calls: [
          { tool_name: 'get_weather', arguments: { city: 'Paris', unit: 'fahrenheit' } },
          { tool_name: 'get_forecast', arguments: { city: 'Paris', tags: ['rain', 'wind'] } },
        ],
      },
      [call('get_forecast', { city: 'Paris', tags: ['wind', 'rain'] }), call('get_weather', { city: 'Paris', unit: 'Fahrenheit' })],
      true,
      { passed: true, score: 1, call_set: -1, calls: ['get_weather:matched', 'get_forecast:matched'] },
    ],
    [
      'catalog: 3.0 for an integer argument under BFCL semantics',
      { expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris', days: 3 } }], coercion: 'bfcl' },
      [call('get_weather', { city: 'Paris', days: 3 }, ['/days'])],
      true,
      {
        passed: false,
        score: 0.5,
        error_code: 'argument_mismatch',
        message: 'get_weather: /days expected 3, got 3 (float_to_int not allowed by the coercion policy)',
        call_set: -1,
        calls: ['get_weather:partial'],
      },
    ],
  ])('%s', (_name, fields, actual, withCatalog, verdict) => {
    expect(verdictOf(run(actual, testCase(fields), withCatalog))).toEqual(verdict);
  });

  it('lists coercions applied on a passing call in the diff', () => {
    const out = run(
      [call('get_weather', { city: ' Paris ', unit: 'CELSIUS', days: '2' })],
      testCase({ expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius', days: 2 } }] }),
      true,
    );
    expect((out.result.details as LogicDetails).calls[0]!.entries).toEqual([
      { path: '/city', kind: 'coerced', expected: 'Paris', actual: ' Paris ', coercions: ['string_whitespace'] },
      { path: '/unit', kind: 'coerced', expected: 'celsius', actual: 'CELSIUS', coercions: ['enum_case'] },
      { path: '/days', kind: 'coerced', expected: 2, actual: '2', coercions: ['numeric_string'] },
    ]);
    expect(out.result.passed).toBe(true);
  });

  it('never throws on malformed calls', () => {
    const junk = [
      { tool_name: 'get_weather', arguments: null },
      { tool_name: 'get_weather', arguments: 'city=Paris' },
      { tool_name: 'get_weather' },
    ] as unknown as ToolCall[];
    const out = run(junk, testCase({ expected_tool_calls: [paris] }), true);
    expect(verdictOf(out)).toEqual({
      passed: false,
      score: 0,
      error_code: 'extra_call',
      message: 'get_weather: (root) expected {"city":"Paris","unit":"celsius"}, got null; 2 unexpected calls: get_weather, get_weather',
      call_set: -1,
      calls: ['get_weather:partial', 'get_weather:extra', 'get_weather:extra'],
    });
  });
});
