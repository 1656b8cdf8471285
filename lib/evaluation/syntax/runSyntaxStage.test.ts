import { describe, expect, it } from 'vitest';
import { StageResultSchema } from '../../domain/stageResult.js';
import type { ToolCatalog } from '../../domain/toolCatalog.js';
import { runSyntaxStage, type SyntaxStageOutput } from './runSyntaxStage.js';

const catalog: ToolCatalog = {
  name: 'weather',
  tool_schema_version: '1',
  tools: [
    {
      name: 'get_weather',
      description: '',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer' }, unit: { enum: ['c', 'f'] } },
        required: ['city'],
        additionalProperties: false,
      },
    },
  ],
};

const message = (args: string): unknown => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: args } }],
});

/** duration_ms varies; check it separately and compare the rest whole. */
function withoutDuration(output: SyntaxStageOutput): unknown {
  expect(output.result.duration_ms).toBeGreaterThanOrEqual(0);
  expect(StageResultSchema.safeParse(output.result).success).toBe(true);
  return { ...output, result: { ...output.result, duration_ms: 0 } };
}

describe('runSyntaxStage', () => {
  it('passes a well-formed call with score 1', () => {
    expect(withoutDuration(runSyntaxStage(message('{"city": "Oslo", "days": 2}'), { catalog }))).toEqual({
      result: { stage: 'syntax', status: 'passed', passed: true, score: 1, details: { format: 'openai_chat', issues: [] }, duration_ms: 0 },
      calls: [
        { tool_name: 'get_weather', arguments: { city: 'Oslo', days: 2 }, call_id: 'call_1', raw_arguments: '{"city": "Oslo", "days": 2}' },
      ],
      answer: null,
      format: 'openai_chat',
    });
  });

  it('passes without a catalog, and passes an abstention (text, zero calls)', () => {
    expect(runSyntaxStage(message('{"anything": true}')).result).toMatchObject({ passed: true, score: 1 });
    expect(withoutDuration(runSyntaxStage('I cannot look that up.', { catalog }))).toEqual({
      result: { stage: 'syntax', status: 'passed', passed: true, score: 1, details: { format: 'text', issues: [] }, duration_ms: 0 },
      calls: [],
      answer: 'I cannot look that up.',
      format: 'text',
    });
  });

  it.each<[string, unknown, { error_code: string; message: string; format: string }]>([
    ['empty output', '', { error_code: 'empty_output', message: 'The target returned an empty string.', format: 'unknown' }],
    [
      'unparseable text',
      '{"oops"',
      {
        error_code: 'unparseable_output',
        message:
          "The output looks like JSON but does not parse: Expected ':' after property name at the end of the text (position 7); is it truncated?.",
        format: 'unknown',
      },
    ],
    [
      'bad argument JSON',
      message('{"city": Oslo}'),
      {
        error_code: 'invalid_arguments_json',
        message: 'get_weather (tool_calls[0]): arguments are not valid JSON: Unexpected token \'O\' at position 9, before "Oslo}"',
        format: 'openai_chat',
      },
    ],
  ])('fails with score 0 on %s', (_name, raw, expected) => {
    const output = runSyntaxStage(raw, { catalog });
    expect(withoutDuration(output)).toEqual({
      result: {
        stage: 'syntax',
        status: 'failed',
        passed: false,
        score: 0,
        error_code: expected.error_code,
        message: expected.message,
        details: { format: expected.format, issues: [] },
        duration_ms: 0,
      },
      calls: [],
      answer: null,
      format: expected.format,
    });
  });

  it('fails on catalog issues: first issue code, up to three messages, all issues in details', () => {
    const output = runSyntaxStage(message('{"days": "two", "unit": "k", "wind": true, "rain": 1}'), { catalog });
    const issues = [
      {
        call_index: 0,
        tool_name: 'get_weather',
        path: '/city',
        error_code: 'missing_required_argument',
        message: 'get_weather: missing required argument /city',
      },
      {
        call_index: 0,
        tool_name: 'get_weather',
        path: '/wind',
        error_code: 'schema_violation',
        message: 'get_weather: unexpected argument /wind (the schema allows no other properties here)',
      },
      {
        call_index: 0,
        tool_name: 'get_weather',
        path: '/rain',
        error_code: 'schema_violation',
        message: 'get_weather: unexpected argument /rain (the schema allows no other properties here)',
      },
      {
        call_index: 0,
        tool_name: 'get_weather',
        path: '/days',
        error_code: 'wrong_argument_type',
        message: 'get_weather: argument /days must be integer, got string "two"',
      },
      {
        call_index: 0,
        tool_name: 'get_weather',
        path: '/unit',
        error_code: 'enum_violation',
        message: 'get_weather: argument /unit must be one of "c", "f", got string "k"',
      },
    ];
    expect(withoutDuration(output)).toMatchObject({
      result: {
        stage: 'syntax',
        status: 'failed',
        passed: false,
        score: 0,
        error_code: 'missing_required_argument',
        message:
          'get_weather: missing required argument /city; get_weather: unexpected argument /wind (the schema allows no other properties here); ' +
          'get_weather: unexpected argument /rain (the schema allows no other properties here); and 2 more issues',
        details: { format: 'openai_chat', issues },
      },
      calls: [{ tool_name: 'get_weather', arguments: { days: 'two', unit: 'k', wind: true, rain: 1 } }],
    });
  });

  it('fails a float literal where the schema wants an integer', () => {
    const output = runSyntaxStage(message('{"city": "Oslo", "days": 2.0}'), { catalog });
    expect(output.result).toMatchObject({
      passed: false,
      error_code: 'wrong_argument_type',
      message: 'get_weather: argument /days must be integer, got float literal 2.0',
    });
    expect(output.calls[0]?.float_literal_paths).toEqual(['/days']);
  });
});
