import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TestCaseSchema } from '../../domain/index.js';
import { fastTestCase } from './fastTestCase.js';

/** The property: whenever the fast path answers, zod accepts the input and gives the very same JSON (key order too). */
function expectSameAsZod(input: unknown): boolean {
  const fast = fastTestCase(input);
  if (fast === undefined) return false;
  const zod = TestCaseSchema.safeParse(input);
  expect(zod.success).toBe(true);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
  return true;
}

/** fast-check may build null-prototype objects (the fast path leaves those to zod); JSON.parse never does. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    Object.defineProperty(out, k, { value: plain(v), enumerable: true, writable: true, configurable: true });
  return out;
}

/** Usually nothing, sometimes a key the schema does not allow (the fast path must leave those to zod). */
const poison = fc.oneof(
  { weight: 30, arbitrary: fc.constant({}) },
  fc.constant({ bogus: 1 }),
  fc.constant({ $bogus: 1 }),
  fc.constant({ coercion: 'bfcl' }),
  fc.constant({ execution: {} }),
);
const withPoison = <T extends object>(arb: fc.Arbitrary<T>): fc.Arbitrary<T> => fc.tuple(arb, poison).map(([a, b]) => ({ ...a, ...b }));
const maybe = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 40, arbitrary: valid }, { weight: 1, arbitrary: fc.jsonValue() }, { weight: 1, arbitrary: fc.constant(undefined) });
const word = fc.oneof(
  { weight: 30, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) },
  fc.constantFrom('', '$value', '__proto__', '2026-03-01'),
);
const scalar = fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
const matcher = withPoison(
  fc.record(
    {
      $value: scalar,
      $one_of: fc.array(scalar, { minLength: 1, maxLength: 3 }).chain((a) => fc.constantFrom(a, a, a, [])),
      $optional: maybe(fc.boolean()),
      $range: maybe(fc.record({ min: fc.integer({ min: -5, max: 2 }), max: fc.integer({ min: 0, max: 5 }) }, { requiredKeys: [] })),
      $tolerance: maybe(
        fc.record(
          { relative: fc.double({ min: -0.1, max: 1, noNaN: true }), absolute: fc.integer({ min: -1, max: 9 }) },
          { requiredKeys: [] },
        ),
      ),
      $unordered: fc.boolean(),
      $any: maybe(fc.boolean()),
    },
    { requiredKeys: [] },
  ),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, scalar, matcher, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(word, tie('v'), { maxKeys: 3 })),
})).v;
const call = withPoison(
  fc.record(
    { tool_name: maybe(word), arguments: maybe(fc.dictionary(word, value, { maxKeys: 4 })), allow_extra_arguments: maybe(fc.boolean()) },
    { requiredKeys: ['tool_name'] },
  ),
);
const calls = fc.array(maybe(call), { maxLength: 3 });
const metadata = withPoison(
  fc.record(
    {
      api_version: maybe(word),
      complexity_level: maybe(fc.oneof({ weight: 10, arbitrary: fc.integer({ min: 1, max: 5 }) }, fc.constantFrom(0, 6, 2.5))),
      tags: maybe(fc.array(word, { maxLength: 3 })),
      category: maybe(word),
      author: maybe(word),
      source: maybe(word),
      created_at: maybe(fc.constantFrom('2026-03-01T10:00:00Z', '2026-03-01T10:00:00.123+02:00', '2026-03-01', 'now')),
      updated_at: maybe(fc.constantFrom('2026-03-01T10:00:00Z', 'yesterday')),
    },
    { requiredKeys: [] },
  ),
);
const baseCase = withPoison(
  fc.record(
    {
      id: maybe(word),
      nl_query: maybe(word),
      expected_tool_calls: maybe(calls),
      alternative_tool_calls: maybe(fc.array(calls, { maxLength: 2 })),
      call_order: maybe(fc.constantFrom('any', 'strict', 'random')),
      expected_nl_response: maybe(word),
      expected_facts: maybe(fc.array(word, { maxLength: 2 })),
      expected_agent: maybe(word),
      expected_routing_reason: maybe(word),
      tool_catalog: maybe(fc.record({ name: word, version: word })),
      metadata: maybe(metadata),
    },
    { requiredKeys: ['id', 'nl_query', 'expected_tool_calls'] },
  ),
);
/** Raw data aligned with the calls (usually) or not. */
const testCase = fc
  .tuple(baseCase, fc.array(value, { maxLength: 3 }), fc.constantFrom('none', 'aligned', 'aligned', 'as is'))
  .map(([c, raw, mode]) => {
    if (mode === 'none') return c;
    const n = Array.isArray(c.expected_tool_calls) ? c.expected_tool_calls.length : 0;
    return { ...c, expected_raw_data: mode === 'as is' ? raw : Array.from({ length: n }, (_, i) => raw[i] ?? null) };
  })
  .chain((c) => fc.constantFrom(plain(c), plain(c), plain(c), c));

describe('fastTestCase', () => {
  it('answers only for inputs zod accepts, with exactly zod output (generated cases, valid and invalid)', () => {
    let answered = 0;
    fc.assert(
      fc.property(testCase, (input) => {
        if (expectSameAsZod(input)) answered++;
      }),
      { numRuns: 6000, seed: 20_260_301 },
    );
    // the property must not hold vacuously: a good share of the generated cases takes the fast path
    expect(answered).toBeGreaterThan(100);
  });

  it('takes the fast path, with zod output, for generated valid cases of the usual shape (matchers included)', () => {
    const name = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__' && !k.startsWith('$'));
    const arg = fc.oneof(
      scalar,
      fc.array(scalar, { maxLength: 3 }),
      fc.dictionary(name, scalar, { maxKeys: 3 }),
      fc.record({ $one_of: fc.array(scalar, { minLength: 1, maxLength: 3 }) }),
      fc.record({ $value: scalar, $optional: fc.boolean() }, { requiredKeys: ['$value'] }),
      fc.record({ $range: fc.record({ min: fc.integer({ max: 0 }), max: fc.integer({ min: 1 }) }) }),
      fc.record({ $tolerance: fc.record({ relative: fc.double({ min: 0, max: 1, noNaN: true }) }) }),
    );
    const validCall = fc.record(
      { tool_name: name, arguments: fc.dictionary(name, arg, { maxKeys: 4 }), allow_extra_arguments: fc.boolean() },
      { requiredKeys: ['tool_name'] },
    );
    const valid = fc.record(
      {
        id: name,
        nl_query: name,
        expected_tool_calls: fc.array(validCall, { maxLength: 3 }),
        alternative_tool_calls: fc.array(fc.array(validCall, { maxLength: 2 }), { maxLength: 2 }),
        call_order: fc.constantFrom('any', 'strict'),
        expected_nl_response: fc.string({ maxLength: 8 }),
        expected_facts: fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
        tool_catalog: fc.record({ name, version: name }),
        metadata: fc.record(
          {
            complexity_level: fc.integer({ min: 1, max: 5 }),
            tags: fc.array(name, { maxLength: 3 }),
            category: name,
            api_version: name,
            source: name,
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['id', 'nl_query', 'expected_tool_calls'] },
    );
    fc.assert(
      fc.property(valid.map(plain), (input) => expectSameAsZod(input)),
      { numRuns: 1000, seed: 20_260_301 },
    );
  });

  it('takes the fast path for every case of the retail example without `execution` (left to zod), with zod output', () => {
    const cases = readFileSync(new URL('../../../examples/retail/gold.jsonl', import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const plain = cases.filter((c) => !('execution' in c));
    expect(plain.length).toBeGreaterThan(250);
    for (const c of plain) expect(expectSameAsZod(c)).toBe(true);
  });

  it.each([
    [
      'a typical imported case',
      {
        id: 'a',
        nl_query: 'q',
        expected_tool_calls: [{ tool_name: 't', arguments: { x: { $one_of: [1, 2] }, y: [1, { z: null }] } }],
        metadata: { tags: ['t'], source: 'native' },
      },
      true,
    ],
    ['defaults only', { id: 'a', nl_query: 'q', expected_tool_calls: [] }, true],
    [
      'exported metadata timestamps',
      {
        id: 'a',
        nl_query: 'q',
        expected_tool_calls: [],
        metadata: { complexity_level: 3, tags: [], created_at: '2026-03-01T10:00:00.000Z', updated_at: '2026-03-01T10:00:00.000Z' },
      },
      true,
    ],
    ['a field left to zod (coercion)', { id: 'a', nl_query: 'q', expected_tool_calls: [], coercion: 'bfcl' }, false],
    ['an undefined value', { id: 'a', nl_query: 'q', expected_tool_calls: [], expected_nl_response: undefined }, false],
    [
      'a __proto__ argument',
      JSON.parse('{"id":"a","nl_query":"q","expected_tool_calls":[{"tool_name":"t","arguments":{"__proto__":{"x":1}}}]}'),
      false,
    ],
    ['a bad matcher', { id: 'a', nl_query: 'q', expected_tool_calls: [{ tool_name: 't', arguments: { x: { $one_of: [] } } }] }, false],
    ['raw data not aligned', { id: 'a', nl_query: 'q', expected_tool_calls: [], expected_raw_data: [1] }, false],
    ['not an object', 'a string', false],
  ])('%s: fast path %s', (_name, input, fast) => {
    expect(expectSameAsZod(input)).toBe(fast);
  });
});
