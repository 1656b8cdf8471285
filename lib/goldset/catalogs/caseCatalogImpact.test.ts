import { describe, expect, it } from 'vitest';
import { TestCaseSchema, ToolCatalogSchema, type TestCase, type ToolCatalog } from '../../domain/index.js';
import { caseCatalogBreaks } from './caseCatalogImpact.js';
import { migrateCase } from './migrateCase.js';

const v1: ToolCatalog = ToolCatalogSchema.parse({
  name: 'shop',
  tool_schema_version: '1',
  tools: [
    {
      name: 'get_orders',
      parameters: {
        type: 'object',
        properties: { customer: { type: 'string' }, limit: { type: 'integer' }, status: { type: 'string' } },
        required: ['customer'],
      },
    },
    { name: 'cancel_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } },
    { name: 'legacy_report', parameters: { type: 'object', properties: { day: { type: 'string' } } } },
  ],
});

/** v2: customer -> customer_id, new required currency (default EUR), limit now a string, cancel_order -> void_order, legacy_report gone */
const v2: ToolCatalog = ToolCatalogSchema.parse({
  name: 'shop',
  tool_schema_version: '2',
  tools: [
    {
      name: 'get_orders',
      parameters: {
        type: 'object',
        properties: {
          customer_id: { type: 'string' },
          limit: { type: 'string' },
          status: { type: 'string', enum: ['open', 'closed'] },
          currency: { type: 'string', default: 'EUR' },
        },
        required: ['customer_id', 'currency'],
      },
    },
    { name: 'void_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } },
  ],
});

const caseOf = (calls: unknown[], extra: Record<string, unknown> = {}): TestCase =>
  TestCaseSchema.parse({ id: 'c1', nl_query: 'q', expected_tool_calls: calls, tool_catalog: { name: 'shop', version: '1' }, ...extra });

describe('caseCatalogBreaks', () => {
  it('names each kind of break with the parameter and a suggested migration step', () => {
    const tc = caseOf([
      { tool_name: 'get_orders', arguments: { customer: 'C-1', limit: 5, status: 'open' } },
      { tool_name: 'cancel_order', arguments: { order_id: 'O-1' } },
      { tool_name: 'legacy_report', arguments: { day: 'mon' } },
    ]);
    const breaks = caseCatalogBreaks(tc, v1, v2);
    const byKind = Object.fromEntries(breaks.map((b) => [b.kind, b]));
    expect(breaks.map((b) => b.kind).sort()).toEqual([
      'parameter_renamed',
      'required_parameter_added',
      'tool_removed',
      'tool_renamed',
      'type_changed',
    ]);
    expect(byKind['parameter_renamed']).toMatchObject({
      call: 'expected_tool_calls/0',
      parameter: 'customer',
      suggestion: { op: 'rename_argument', tool: 'get_orders', from: 'customer', to: 'customer_id' },
    });
    expect(byKind['required_parameter_added']).toMatchObject({ parameter: 'currency', suggestion: { op: 'add_default', value: 'EUR' } });
    expect(byKind['type_changed']).toMatchObject({ parameter: 'limit' });
    expect(byKind['type_changed']!.message).toMatch(/from integer to string/);
    expect(byKind['tool_renamed']).toMatchObject({
      call: 'expected_tool_calls/1',
      suggestion: { op: 'rename_tool', from: 'cancel_order', to: 'void_order' },
    });
    expect(byKind['tool_removed']).toMatchObject({ call: 'expected_tool_calls/2', tool: 'legacy_report' });
  });

  it('reports a parameter removed without a likely new name, a value outside a new enum, and checks conversation turns', () => {
    const tc = TestCaseSchema.parse({
      id: 'conv',
      turns: [
        {
          user: 'hi',
          expected_tool_calls: [
            { tool_name: 'get_orders', arguments: { customer_id: 'C', currency: 'EUR', status: 'pending', limit: '1', colour: 'red' } },
          ],
        },
      ],
    });
    const breaks = caseCatalogBreaks(tc, v2, v2);
    expect(breaks.map((b) => [b.kind, b.parameter, b.call])).toEqual([
      ['parameter_removed', 'colour', 'turns/0/expected_tool_calls/0'],
      ['schema_violation', 'status', 'turns/0/expected_tool_calls/0'],
    ]);
  });

  it('checks matcher values by their representative value and $any arguments for presence only', () => {
    const tc = caseOf([
      {
        tool_name: 'get_orders',
        arguments: { customer_id: { $any: true }, currency: { $one_of: ['EUR', 'USD'] }, limit: { $value: '3' } },
      },
    ]);
    expect(caseCatalogBreaks(tc, v1, v2)).toEqual([]);
  });
});

describe('migrateCase', () => {
  const ops = [
    { op: 'rename_argument', tool: 'get_orders', from: 'customer', to: 'customer_id' },
    { op: 'add_default', tool: 'get_orders', argument: 'currency', value: 'EUR' },
    { op: 'rename_tool', from: 'cancel_order', to: 'void_order' },
  ] as const;

  it('renames arguments and tools, adds defaults, moves the catalog reference, and is idempotent', () => {
    const tc = caseOf(
      [
        { tool_name: 'get_orders', arguments: { customer: 'C-1', limit: '5' } },
        { tool_name: 'cancel_order', arguments: { order_id: 'O-1' } },
      ],
      { alternative_tool_calls: [[{ tool_name: 'get_orders', arguments: { customer: 'C-1', limit: '5', currency: 'USD' } }]] },
    );
    const once = migrateCase(tc, ops, { name: 'shop', version: '2' });
    expect(once.testCase.expected_tool_calls).toEqual([
      { tool_name: 'get_orders', arguments: { customer_id: 'C-1', limit: '5', currency: 'EUR' } },
      { tool_name: 'void_order', arguments: { order_id: 'O-1' } },
    ]);
    expect(once.testCase.alternative_tool_calls[0]![0]!.arguments).toEqual({ customer_id: 'C-1', limit: '5', currency: 'USD' });
    expect(once.testCase.tool_catalog).toEqual({ name: 'shop', version: '2' });
    expect(once.changes).toContainEqual({ path: 'expected_tool_calls/0/arguments/customer', before: 'customer', after: 'customer_id' });
    expect(once.changes).toContainEqual({ path: 'expected_tool_calls/0/arguments/currency', after: 'EUR' });
    expect(once.changes).toContainEqual({ path: 'tool_catalog/version', before: '1', after: '2' });
    expect(caseCatalogBreaks(once.testCase, v1, v2)).toEqual([]);
    const twice = migrateCase(once.testCase, ops, { name: 'shop', version: '2' });
    expect(twice.changes).toEqual([]);
    expect(twice.testCase).toBe(once.testCase);
  });

  it('does not rename onto an argument the call already has', () => {
    const tc = caseOf([{ tool_name: 'get_orders', arguments: { customer: 'A', customer_id: 'B' } }]);
    const { testCase } = migrateCase(tc, [ops[0]], { name: 'shop', version: '1' });
    expect(testCase.expected_tool_calls[0]!.arguments).toEqual({ customer: 'A', customer_id: 'B' });
  });
});
