import { describe, expect, it } from 'vitest';
import type { BfclReference, JsonValue } from '../../domain/index.js';
import { parseToolCalls } from '../syntax/parseToolCalls.js';
import { bfclVerdict } from './bfclVerdict.js';
import { javaTypeConverter } from './javaValues.js';
import { jsTypeConverter } from './jsValues.js';
import { pyRepr } from './pyValue.js';

const fn = (name: string, properties: Record<string, JsonValue>, required: string[] = []): JsonValue => ({
  name,
  description: '',
  parameters: { type: 'dict', properties, required },
});

/** BFCL's verdict (error_type) for an output text, as `compat: "bfcl"` decides it. */
function verdict(reference: BfclReference, text: string): string {
  const parsed = parseToolCalls(text);
  const r = bfclVerdict(reference, parsed.ok ? { decoded: true, calls: parsed.calls } : { decoded: false, reason: parsed.message });
  return r.greedy_only_failure ? 'greedy_only_failure' : r.error_type;
}
const call = (name: string, args: string) => `[{"name": "${name}", "arguments": ${args}}]`;

describe('compat "bfcl": the rules the issue found undocumented, as BFCL decides them', () => {
  const ref: BfclReference = {
    category: 'simple_python',
    function: [
      fn('f', {
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        tags: { type: 'array', items: { type: 'string' } },
        opts: { type: 'dict', properties: { limit: { type: 'integer' } } },
        ids: { type: 'array', items: { type: 'integer' } },
        x: { type: 'integer' },
      }),
    ],
    ground_truth: [{ f: { unit: ['celsius', ''], tags: [['a b'], ''], opts: [{ limit: [5] }, ''], ids: [['7'], ''], x: [1, ''] } }],
  };
  it.each([
    ['an explicit "" for an optional parameter whose answers hold ""', '{"unit": ""}', 'valid'],
    ['an empty list for an optional list parameter whose answers hold ""', '{"tags": []}', 'valid'],
    ['a float literal for an integer inside a dict answer', '{"opts": {"limit": 5.0}}', 'valid'],
    ['string items for integer-typed items when the answer lists strings (dataset slip)', '{"ids": ["7"]}', 'valid'],
    ['an enum value in other case, spacing and punctuation (no enum check, normalised)', '{"unit": "C-E L.S_IUS"}', 'valid'],
    ['normalised list items', '{"tags": ["A_B"]}', 'valid'],
    ['a float literal for a top-level integer', '{"x": 1.0}', 'type_error:simple'],
    ['a numeric string for an integer', '{"x": "1"}', 'type_error:simple'],
    ['bool is not an integer', '{"x": true}', 'type_error:simple'],
    ['an unexpected parameter', '{"y": 1}', 'simple_function_checker:unexpected_param'],
    ['a wrong value', '{"unit": "kelvin"}', 'value_error:string'],
    ['a list in another order', '{"tags": ["b a"]}', 'value_error:list/tuple'],
    ['an unknown dict key', '{"opts": {"limit": 5, "z": 1}}', 'value_error:dict_key'],
  ])('%s -> %s', (_label, args, expected) => {
    expect(verdict(ref, call('f', args))).toBe(expected);
  });

  it('a required parameter missing, a listed parameter without "" missing, a wrong name, a wrong count, no decode', () => {
    const r: BfclReference = {
      category: 'simple',
      function: [fn('g', { a: { type: 'integer' }, b: { type: 'float' } }, ['a'])],
      ground_truth: [{ g: { a: [1], b: [2.5] } }],
    };
    expect(verdict(r, call('g', '{"b": 2.5}'))).toBe('simple_function_checker:missing_required');
    expect(verdict(r, call('g', '{"a": 1}'))).toBe('simple_function_checker:missing_optional');
    expect(verdict(r, call('h', '{"a": 1, "b": 2.5}'))).toBe('simple_function_checker:wrong_func_name');
    expect(verdict(r, '[]')).toBe('simple_function_checker:wrong_count');
    expect(verdict(r, '[{"name": "g", "arguments": {"a": ')).toBe('ast_decoder:decoder_failed');
    expect(
      verdict({ ...r, ground_truth: [{ g: { a: [1], b: [2.0] } }], float_literal_paths: ['/0/g/b/0'] }, call('g', '{"a": 1, "b": 2}')),
    ).toBe('valid');
  });

  it('"variable" values: an answer of another type than declared is accepted by its type and compared without normalisation', () => {
    const r: BfclReference = {
      category: 'simple',
      function: [fn('g', { year: { type: 'integer' } })],
      ground_truth: [{ g: { year: ['Year'] } }],
    };
    expect(verdict(r, call('g', '{"year": "Year"}'))).toBe('valid');
    expect(verdict(r, call('g', '{"year": "year"}'))).toBe('value_error:others');
  });

  it('parallel: any order; where greedy pairing fails but a one-to-one pairing passes, it passes and says so', () => {
    const r: BfclReference = {
      category: 'parallel',
      function: [fn('p', { x: { type: 'integer' } }, ['x'])],
      ground_truth: [{ p: { x: [1, 2] } }, { p: { x: [1] } }],
    };
    expect(verdict(r, '[{"name": "p", "arguments": {"x": 2}}, {"name": "p", "arguments": {"x": 1}}]')).toBe('valid');
    expect(verdict(r, '[{"name": "p", "arguments": {"x": 1}}, {"name": "p", "arguments": {"x": 2}}]')).toBe('greedy_only_failure');
    expect(verdict(r, '[{"name": "p", "arguments": {"x": 2}}, {"name": "p", "arguments": {"x": 2}}]')).toBe(
      'parallel_function_checker_no_order:cannot_find_match',
    );
  });

  it('irrelevance: no call passes (also undecodable text), any call fails', () => {
    const r: BfclReference = { category: 'live_irrelevance', function: [fn('p', {})], ground_truth: [] };
    expect(verdict(r, 'I cannot help with that.')).toBe('valid');
    expect(verdict(r, '[]')).toBe('valid');
    expect(verdict(r, call('p', '{}'))).toBe('irrelevance_error:decoder_success');
  });

  it('Java and JavaScript: source text parsed as BFCL parses it; a non-string value is a type error', () => {
    const java: BfclReference = {
      category: 'simple_java',
      function: [fn('J.m', { n: { type: 'long' }, xs: { type: 'ArrayList', items: { type: 'String' } }, ok: { type: 'boolean' } })],
      ground_truth: [{ 'J.m': { n: [5], xs: [['a', 'b']], ok: [true, ''] } }],
    };
    expect(verdict(java, call('J.m', '{"n": "5L", "xs": "new ArrayList<>(Arrays.asList(\\"a\\", \\"b\\"))"}'))).toBe('valid');
    expect(verdict(java, call('J.m', '{"n": "5", "xs": "new ArrayList<>(Arrays.asList(\\"a\\", \\"b\\"))"}'))).toBe('type_error:simple');
    expect(verdict(java, call('J.m', '{"n": 5, "xs": "x"}'))).toBe('type_error:java');
    const js: BfclReference = {
      category: 'simple_javascript',
      function: [fn('go', { s: { type: 'String' }, a: { type: 'array', items: { type: 'integer' } } })],
      ground_truth: [{ go: { s: ['Hello'], a: [[1, 2]] } }],
    };
    expect(verdict(js, call('go', `{"s": "'hello'", "a": "new Array(1, 2)"}`))).toBe('valid');
    expect(verdict(js, call('go', '{"s": "hello", "a": "[1, 2.5]"}'))).toBe('type_error:nested');
  });

  it('converters: the forms BFCL parses and the text it leaves as text', () => {
    expect(pyRepr(javaTypeConverter('3.5f', 'float'))).toBe('3.5');
    expect(pyRepr(javaTypeConverter('3.5', 'float'))).toBe("'3.5'");
    expect(pyRepr(javaTypeConverter('new int[] {1, 2}', 'Array', 'integer'))).toBe('[1, 2]');
    expect(pyRepr(javaTypeConverter('new HashMap<String, Integer>() {{ put("a", 1); }}', 'HashMap'))).toBe("{'a': 1}");
    expect(pyRepr(javaTypeConverter("'c'", 'char'))).toBe("''c''");
    expect(pyRepr(jsTypeConverter('{a: 1, b: [1, 2], c: "x"}', 'dict'))).toBe("{'a': 1, 'b': [1, 2], 'c': 'x'}");
    expect(pyRepr(jsTypeConverter('[[1, 2], [3]]', 'array', 'array'))).toBe('[[1, 2], [3]]');
    expect(pyRepr(jsTypeConverter('12n', 'Bigint'))).toBe('12');
    // a Java type BFCL's converter does not know: it raises, so the case fails as it does there
    expect(() => javaTypeConverter('x', 'Set')).toThrow("BFCL's checker has no conversion for Java type Set");
  });
});
