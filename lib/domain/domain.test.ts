import { describe, expect, it } from 'vitest';
import {
  DOMAIN_SCHEMAS,
  TestCaseSchema,
  ExpectedValueSchema,
  isMatcherObject,
  resolveEvaluationConfig,
  toJsonSchema,
  canonicalJson,
  canonicalCallKey,
  TestSuiteSchema,
  TargetSystemSchema,
  type DomainSchemaName,
} from './index.js';

describe('TestCaseSchema', () => {
  it('fills defaults for a minimal case', () => {
    const tc = TestCaseSchema.parse({ id: 'c1', nl_query: 'q', expected_tool_calls: [{ tool_name: 'f' }] });
    expect(tc).toEqual({
      id: 'c1',
      nl_query: 'q',
      expected_tool_calls: [{ tool_name: 'f', arguments: {} }],
      alternative_tool_calls: [],
      call_order: 'any',
      expected_facts: [],
      metadata: { complexity_level: 1, tags: [] },
    });
  });

  it('accepts an abstention case (no call expected)', () => {
    expect(TestCaseSchema.parse({ id: 'a', nl_query: 'hi', expected_tool_calls: [] }).expected_tool_calls).toEqual([]);
  });

  it.each([
    [{ id: '', nl_query: 'q', expected_tool_calls: [] }, 'id'],
    [{ id: 'x', nl_query: 'q', expected_tool_calls: [], metadata: { complexity_level: 6 } }, 'metadata.complexity_level'],
    [{ id: 'x', nl_query: 'q', expected_tool_calls: [{ tool_name: 'f' }], expected_raw_data: [1, 2] }, 'expected_raw_data'],
    [
      { id: 'x', nl_query: 'q', expected_tool_calls: [{ tool_name: 'f', arguments: { a: { $range: { min: 5, max: 1 } } } }] },
      'expected_tool_calls.0.arguments.a.$range',
    ],
    [
      { id: 'x', nl_query: 'q', expected_tool_calls: [{ tool_name: 'f', arguments: { a: { $bogus: 1 } } }] },
      'expected_tool_calls.0.arguments.a',
    ],
    [{ id: 'x', nl_query: 'q', expected_tool_calls: [], surprise: true }, ''],
  ])('rejects bad input and names the field (%#)', (input, path) => {
    const r = TestCaseSchema.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.'))).toContain(path);
  });
});

describe('matchers', () => {
  it.each([
    [{ $one_of: [1, 2] }, true],
    [{ $optional: true, $value: 'x' }, true],
    [{ a: 1 }, false],
    [{ $x: 1, a: 1 }, false],
    [{}, false],
    [[1], false],
  ])('isMatcherObject(%j) = %s', (v, expected) => {
    expect(isMatcherObject(v)).toBe(expected);
  });

  it('validates nested matchers', () => {
    expect(ExpectedValueSchema.safeParse({ filters: { price: { $range: { min: 1, max: 2 } } } }).success).toBe(true);
    expect(ExpectedValueSchema.safeParse({ $one_of: [] }).success).toBe(false);
  });
});

describe('resolveEvaluationConfig', () => {
  it.each([
    ['ci', false, false],
    ['nightly', true, true],
    ['release', true, false],
  ] as const)('profile %s switches execution=%s semantics=%s', (profile, execution, semantics) => {
    const cfg = resolveEvaluationConfig({ profile });
    expect([cfg.execution.enabled, cfg.semantics.enabled]).toEqual([execution, semantics]);
  });

  it('explicit stage settings beat the profile', () => {
    const cfg = resolveEvaluationConfig({ profile: 'nightly', semantics: { enabled: false } });
    expect(cfg.semantics.enabled).toBe(false);
    expect(cfg.execution).toEqual({ enabled: true, provider: 'recorded', mode: 'replay', relative_tolerance: 0.0001, timeout_ms: 30000 });
  });
});

describe('JSON Schema export', () => {
  it.each(Object.keys(DOMAIN_SCHEMAS) as DomainSchemaName[])('%s exports as a JSON Schema object', (name) => {
    const schema = toJsonSchema(name);
    expect(schema.$schema).toMatch(/json-schema/);
    expect(schema.type ?? schema.anyOf ?? schema.allOf).toBeDefined();
  });

  it('TestCase schema lists its required fields', () => {
    const schema = toJsonSchema('TestCase');
    expect(schema.required).toEqual(['id']);
    // a question with its expected calls, or a conversation
    expect(schema.anyOf).toEqual([{ required: ['nl_query', 'expected_tool_calls'] }, { required: ['turns'] }]);
  });
});

describe('canonical JSON', () => {
  it('sorts keys recursively and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[1,{"y":2,"z":1}]},"b":1}');
  });
  it('gives equal keys for argument order permutations', () => {
    expect(canonicalCallKey({ tool_name: 'f', arguments: { a: 1, b: 2 } })).toBe(
      canonicalCallKey({ tool_name: 'f', arguments: { b: 2, a: 1 } }),
    );
  });
});

describe('suites and targets', () => {
  const ts = '2026-01-01T00:00:00Z';
  it('a dynamic suite needs a filter', () => {
    const r = TestSuiteSchema.safeParse({ id: 's', name: 's', kind: 'dynamic', created_at: ts, updated_at: ts });
    expect(r.error?.issues[0]?.path).toEqual(['filter']);
  });
  it('a target secret is a reference, never a value', () => {
    const base = { id: 't', name: 't', created_at: ts, updated_at: ts };
    expect(
      TargetSystemSchema.safeParse({ ...base, settings: { kind: 'openai', model: 'gpt-4o', api_key: { env: 'OPENAI_API_KEY' } } }).success,
    ).toBe(true);
    const bad = TargetSystemSchema.safeParse({ ...base, settings: { kind: 'openai', model: 'gpt-4o', api_key: 'sk-live-123' } });
    expect(bad.error?.issues[0]?.path).toEqual(['settings', 'api_key']);
  });
});
