import { describe, expect, it } from 'vitest';
import { COERCION_POLICIES, type ToolCatalog } from '../../domain/index.js';
import { runSyntaxStage } from './runSyntaxStage.js';

const catalog: ToolCatalog = {
  name: 'shop',
  tool_schema_version: '1',
  tools: [
    {
      name: 'search',
      description: '',
      parameters: {
        type: 'object',
        properties: {
          max_price: { type: 'number' },
          limit: { type: 'integer' },
          in_stock: { type: 'boolean' },
          sort: { type: 'string', enum: ['asc', 'desc'] },
          q: { type: 'string' },
        },
        required: ['q'],
      },
    },
  ],
};
const call = (args: string): unknown => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'c', type: 'function', function: { name: 'search', arguments: args } }],
});

describe('syntax gate and the coercion policy agree', () => {
  it.each([
    ['numeric string for a number', '{"q":"x","max_price":"100"}', 'numeric_string'],
    ['integral numeric string for an integer', '{"q":"x","limit":"5"}', 'numeric_string'],
    ['boolean string', '{"q":"x","in_stock":"true"}', 'boolean_string'],
    ['float literal for an integer', '{"q":"x","limit":5.0}', 'float_to_int'],
    ['enum in another case', '{"q":"x","sort":"DESC"}', 'enum_case'],
    ['number for a string', '{"q":42}', 'numeric_string'],
  ])('%s passes under the default policy, named as tolerated', (_label, args, coercion) => {
    const out = runSyntaxStage(call(args), { catalog, coercion: COERCION_POLICIES.default });
    expect(out.result.status).toBe('passed');
    expect((out.result.details as { tolerated: Array<{ coercion: string }> }).tolerated.map((t) => t.coercion)).toEqual([coercion]);
  });

  it.each([
    ['numeric string for a number', '{"q":"x","max_price":"100"}', 'wrong_argument_type'],
    ['float literal for an integer', '{"q":"x","limit":5.0}', 'wrong_argument_type'],
    ['enum in another case', '{"q":"x","sort":"DESC"}', 'enum_violation'],
  ])('%s fails the gate under the strict policy', (_label, args, code) => {
    const out = runSyntaxStage(call(args), { catalog, coercion: COERCION_POLICIES.strict });
    expect([out.result.status, out.result.error_code]).toEqual(['failed', code]);
  });

  it.each([
    ['a non-numeric string for a number', '{"q":"x","max_price":"cheap"}', 'wrong_argument_type'],
    ['a fractional string for an integer', '{"q":"x","limit":"2.5"}', 'wrong_argument_type'],
    ['an enum value that is not there in any case', '{"q":"x","sort":"random"}', 'enum_violation'],
    ['a missing required argument', '{"max_price":5}', 'missing_required_argument'],
  ])('%s fails the gate even under the default policy', (_label, args, code) => {
    const out = runSyntaxStage(call(args), { catalog, coercion: COERCION_POLICIES.default });
    expect([out.result.status, out.result.error_code]).toEqual(['failed', code]);
  });
});
