import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../domain/toolCall.js';
import type { ToolCatalog } from '../../domain/toolCatalog.js';
import type { CallIssue } from './callIssue.js';
import { validateCalls } from './validateCalls.js';
import { ToolSchemaError } from './validation/catalogValidators.js';

/** The issues without the machine-readable `expected` (asserted in coercionTolerance.test.ts). */
const withoutExpected = (issues: CallIssue[]): CallIssue[] => issues.map(({ expected: _expected, ...rest }) => rest);

const catalog: ToolCatalog = {
  name: 'shop',
  tool_schema_version: '2',
  tools: [
    {
      name: 'get_orders',
      description: 'List orders',
      parameters: {
        type: 'object',
        properties: {
          customer_id: { type: 'string', pattern: '^c_' },
          limit: { type: 'integer', minimum: 1, maximum: 100 },
          status: { type: 'string', enum: ['open', 'shipped', 'closed'] },
          since: { type: 'string', format: 'date' },
          currency: { const: 'EUR' },
          page: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
          sort: { anyOf: [{ enum: ['asc', 'desc'] }, { type: 'null' }] },
          filters: {
            type: 'array',
            items: { type: 'object', properties: { price: { type: 'integer' } }, required: ['price'] },
          },
          ratio: { type: 'number' },
        },
        required: ['customer_id'],
        additionalProperties: false,
      },
    },
    { name: 'ping', description: '', parameters: { type: 'object', properties: {} } },
    { name: 'math.factorial', description: '', parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
  ],
};

const call = (tool_name: string, args: Record<string, unknown>, extra: Partial<ToolCall> = {}): ToolCall => ({
  tool_name,
  arguments: args as ToolCall['arguments'],
  ...extra,
});
const issue = (
  error_code: CallIssue['error_code'],
  path: string,
  message: string,
  call_index = 0,
  tool_name = 'get_orders',
): CallIssue => ({
  call_index,
  tool_name,
  path,
  error_code,
  message,
});

describe('validateCalls', () => {
  it.each<[string, ToolCall[], CallIssue[]]>([
    ['a valid call', [call('get_orders', { customer_id: 'c_1', limit: 10, status: 'open', since: '2024-01-05', page: null })], []],
    ['a tool with no parameters', [call('ping', {})], []],
    ['a dotted tool name', [call('math.factorial', { n: 5 })], []],
    [
      'an unknown tool, with a case-insensitive suggestion',
      [call('Get_Orders', {})],
      [issue('unknown_tool', '', 'Get_Orders: no such tool in catalog shop@2; did you mean get_orders?', 0, 'Get_Orders')],
    ],
    [
      'an unknown tool with a namespace prefix',
      [call('functions.ping', {})],
      [issue('unknown_tool', '', 'functions.ping: no such tool in catalog shop@2; did you mean ping?', 0, 'functions.ping')],
    ],
    [
      'an unknown tool, listing the known ones',
      [call('delete_everything', {})],
      [
        issue(
          'unknown_tool',
          '',
          'delete_everything: no such tool in catalog shop@2 (it has get_orders, ping, math.factorial)',
          0,
          'delete_everything',
        ),
      ],
    ],
    [
      'a missing required argument',
      [call('get_orders', {})],
      [issue('missing_required_argument', '/customer_id', 'get_orders: missing required argument /customer_id')],
    ],
    [
      'a wrong type',
      [call('get_orders', { customer_id: 'c_1', limit: 'ten' })],
      [issue('wrong_argument_type', '/limit', 'get_orders: argument /limit must be integer, got string "ten"')],
    ],
    [
      'an enum violation',
      [call('get_orders', { customer_id: 'c_1', status: 'pending' })],
      [issue('enum_violation', '/status', 'get_orders: argument /status must be one of "open", "shipped", "closed", got string "pending"')],
    ],
    [
      'a const violation',
      [call('get_orders', { customer_id: 'c_1', currency: 'USD' })],
      [issue('enum_violation', '/currency', 'get_orders: argument /currency must be "EUR", got string "USD"')],
    ],
    [
      'a nullable type (anyOf) folded into one type issue',
      [call('get_orders', { customer_id: 'c_1', page: 'two' })],
      [issue('wrong_argument_type', '/page', 'get_orders: argument /page must be integer or null, got string "two"')],
    ],
    [
      'a nullable enum (anyOf) folded into one enum issue',
      [call('get_orders', { customer_id: 'c_1', sort: 'up' })],
      [issue('enum_violation', '/sort', 'get_orders: argument /sort must be "asc", "desc" or null, got string "up"')],
    ],
    [
      'range, pattern and format are schema violations',
      [call('get_orders', { customer_id: 'x_1', limit: 500, since: 'yesterday' })],
      [
        issue('schema_violation', '/customer_id', 'get_orders: argument /customer_id must match pattern "^c_", got string "x_1"'),
        issue('schema_violation', '/limit', 'get_orders: argument /limit must be <= 100, got number 500'),
        issue('schema_violation', '/since', 'get_orders: argument /since must match format "date", got string "yesterday"'),
      ],
    ],
    [
      'an extra argument',
      [call('get_orders', { customer_id: 'c_1', colour: 'red' })],
      [issue('schema_violation', '/colour', 'get_orders: unexpected argument /colour (the schema allows no other properties here)')],
    ],
    [
      'nested paths',
      [call('get_orders', { customer_id: 'c_1', filters: [{ price: 1 }, { price: 'cheap' }, {}] })],
      [
        issue('wrong_argument_type', '/filters/1/price', 'get_orders: argument /filters/1/price must be integer, got string "cheap"'),
        issue('missing_required_argument', '/filters/2/price', 'get_orders: missing required argument /filters/2/price'),
      ],
    ],
    [
      'several calls, each with its index',
      [call('ping', {}), call('get_orders', { customer_id: 7 }), call('nope', {})],
      [
        issue('wrong_argument_type', '/customer_id', 'get_orders: argument /customer_id must be string, got number 7', 1),
        issue('unknown_tool', '', 'nope: no such tool in catalog shop@2 (it has get_orders, ping, math.factorial)', 2, 'nope'),
      ],
    ],
  ])('%s', (_name, calls, expected) => {
    expect(withoutExpected(validateCalls(calls, catalog))).toEqual(expected);
  });

  describe('float literals where the schema wants an integer', () => {
    it.each<[string, ToolCall, CallIssue[]]>([
      ['5.0 without float_literal_paths passes (JSON.parse made it 5)', call('get_orders', { customer_id: 'c_1', limit: 5 }), []],
      [
        '5.0 recorded in float_literal_paths is a wrong type',
        call('get_orders', { customer_id: 'c_1', limit: 5 }, { float_literal_paths: ['/limit'] }),
        [issue('wrong_argument_type', '/limit', 'get_orders: argument /limit must be integer, got float literal 5.0')],
      ],
      [
        'a float literal where the schema wants a number is fine',
        call('get_orders', { customer_id: 'c_1', ratio: 2 }, { float_literal_paths: ['/ratio'] }),
        [],
      ],
      [
        'nested and nullable paths',
        call(
          'get_orders',
          { customer_id: 'c_1', page: 3, filters: [{ price: 10 }] },
          { float_literal_paths: ['/page', '/filters/0/price'] },
        ),
        [
          issue('wrong_argument_type', '/page', 'get_orders: argument /page must be integer or null, got float literal 3.0'),
          issue('wrong_argument_type', '/filters/0/price', 'get_orders: argument /filters/0/price must be integer, got float literal 10.0'),
        ],
      ],
      [
        'alongside other issues at the same path',
        call('get_orders', { customer_id: 'c_1', limit: 500 }, { float_literal_paths: ['/limit'] }),
        [
          issue('schema_violation', '/limit', 'get_orders: argument /limit must be <= 100, got number 500'),
          issue('wrong_argument_type', '/limit', 'get_orders: argument /limit must be integer, got float literal 500.0'),
        ],
      ],
      ['a path the schema does not type is fine', call('ping', { x: 1 }, { float_literal_paths: ['/x'] }), []],
    ])('%s', (_name, c, expected) => {
      expect(withoutExpected(validateCalls([c], catalog))).toEqual(expected);
    });

    it('never changes the call', () => {
      const c = call('get_orders', { customer_id: 'c_1', filters: [{ price: 10 }] }, { float_literal_paths: ['/filters/0/price'] });
      const before = structuredClone(c);
      validateCalls([c], catalog);
      expect(c).toEqual(before);
    });
  });

  it('compiles each tool schema once per catalog object', () => {
    const fresh: ToolCatalog = structuredClone(catalog);
    const first = validateCalls([call('ping', {})], fresh);
    const started = performance.now();
    for (let i = 0; i < 2000; i++) validateCalls([call('ping', {})], fresh);
    const perCall = (performance.now() - started) / 2000;
    expect(first).toEqual([]);
    // compiling costs milliseconds; a cached validation costs microseconds
    expect(perCall).toBeLessThan(0.2);
  });

  it('never shares a cached validator between catalogs whose tools have the same name (and version) but other schemas', () => {
    const catalogWith = (type: string): ToolCatalog => ({
      name: 'same',
      tool_schema_version: '1',
      tools: [{ name: 'f', description: '', parameters: { type: 'object', properties: { a: { type } }, required: ['a'] } }],
    });
    const integers = catalogWith('integer');
    const strings = catalogWith('string');
    for (let round = 0; round < 2; round++) {
      // alternating, after both validators are cached: each catalog keeps its own schema
      expect(validateCalls([call('f', { a: 1 })], integers)).toEqual([]);
      expect(validateCalls([call('f', { a: 1 })], strings).map((i) => i.error_code)).toEqual(['wrong_argument_type']);
      expect(validateCalls([call('f', { a: 'x' })], strings)).toEqual([]);
      expect(validateCalls([call('f', { a: 'x' })], integers).map((i) => i.error_code)).toEqual(['wrong_argument_type']);
    }
  });

  it('accepts draft-07 schemas and vendor keywords', () => {
    const legacy: ToolCatalog = {
      name: 'legacy',
      tool_schema_version: '1',
      tools: [
        {
          name: 'f',
          description: '',
          parameters: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            'x-internal': true,
            strict: true,
            properties: { a: { type: 'integer' } },
          },
        },
      ],
    };
    expect(withoutExpected(validateCalls([call('f', { a: 'x' })], legacy))).toEqual([
      issue('wrong_argument_type', '/a', 'f: argument /a must be integer, got string "x"', 0, 'f'),
    ]);
  });

  it('throws ToolSchemaError (broken configuration) when a schema does not compile', () => {
    const broken: ToolCatalog = {
      name: 'broken',
      tool_schema_version: '1',
      tools: [{ name: 'f', description: '', parameters: { type: 'object', properties: { a: { type: 'intger' } } } }],
    };
    expect(() => validateCalls([call('f', {})], broken)).toThrow(ToolSchemaError);
    expect(() => validateCalls([call('f', {})], broken)).toThrow(
      'Tool catalog broken@1: the parameters schema of tool "f" does not compile: type must be JSONType or JSONType[]: intger',
    );
  });

  it('treats a tool without parameters as taking an object', () => {
    const bare = { name: 'b', tool_schema_version: '1', tools: [{ name: 'f', description: '' }] } as unknown as ToolCatalog;
    expect(validateCalls([call('f', { anything: 1 })], bare)).toEqual([]);
  });
});
