import { describe, expect, it } from 'vitest';
import { COERCION_POLICIES, type CoercionPolicy, resolveCoercionPolicy } from '../../domain/coercionPolicy.js';
import type { CoercionKind } from '../../domain/diff.js';
import type { ExpectedValue } from '../../domain/expected.js';
import { matchValue } from './matchValue.js';
import type { JsonSchema } from './schemaNav.js';
import type { MatchResult } from './matchState.js';

const { default: DEFAULT, strict: STRICT, bfcl: BFCL } = COERCION_POLICIES;
const REFUSED = 'would make them equal but the coercion policy does not allow it';

/** Match one argument `x` (so diff paths read `/x`), with an optional schema for it and float literal paths. */
function matchArg(
  expected: ExpectedValue,
  actual: unknown,
  policy: CoercionPolicy,
  schema?: JsonSchema,
  floatLiteralPaths?: string[],
): MatchResult {
  return matchValue(
    { x: expected },
    { x: actual },
    {
      policy,
      path: '',
      schema: { type: 'object', properties: schema ? { x: schema } : {} },
      ...(floatLiteralPaths ? { floatLiteralPaths: new Set(floatLiteralPaths) } : {}),
    },
  );
}

const coerced = (expected: unknown, actual: unknown, ...coercions: CoercionKind[]): MatchResult => ({
  score: 1,
  passed: true,
  entries: [{ path: '/x', kind: 'coerced', expected, actual, coercions }],
});
const refused = (expected: unknown, actual: unknown, ...coercions: CoercionKind[]): MatchResult => ({
  score: 0,
  passed: false,
  entries: [{ path: '/x', kind: 'mismatch', expected, actual, coercions, message: `${coercions.join(' + ')} ${REFUSED}` }],
});
const equal: MatchResult = { score: 1, passed: true, entries: [] };

const INTEGER = { type: 'integer' };
const NUMBER = { type: 'number' };
const ENUM = { type: 'string', enum: ['Celsius', 'Fahrenheit'] };
const CASE_WS = resolveCoercionPolicy('strict', { string_normalization: 'case_whitespace' });
const TOLERANT = resolveCoercionPolicy('default', { numeric_relative_tolerance: 0.01 });
const ABS_TOLERANT = resolveCoercionPolicy('default', { numeric_absolute_tolerance: 0.5 });

describe('matchValue: every coercion, allowed and refused by the policy', () => {
  it.each<[string, ExpectedValue, unknown, CoercionPolicy, JsonSchema | undefined, string[] | undefined, MatchResult]>([
    // numeric_string, both directions
    ['numeric string for a number (default)', 5, '5', DEFAULT, undefined, undefined, coerced(5, '5', 'numeric_string')],
    ['numeric string for a number (strict)', 5, '5', STRICT, undefined, undefined, refused(5, '5', 'numeric_string')],
    ['number for a numeric string (default)', '5', 5, DEFAULT, undefined, undefined, coerced('5', 5, 'numeric_string')],
    ['number for a numeric string (bfcl)', '5', 5, BFCL, undefined, undefined, refused('5', 5, 'numeric_string')],
    [
      'numeric string with another value',
      5,
      '6',
      DEFAULT,
      undefined,
      undefined,
      { score: 0, passed: false, entries: [{ path: '/x', kind: 'mismatch', expected: 5, actual: '6' }] },
    ],
    // int_to_float: schema `number`, the actual written as an integer
    ['integer literal where a float is expected (default)', 5, 5, DEFAULT, NUMBER, undefined, coerced(5, 5, 'int_to_float')],
    ['integer literal where a float is expected (strict)', 5, 5, STRICT, NUMBER, undefined, refused(5, 5, 'int_to_float')],
    ['float literal where a float is expected', 5, 5, STRICT, NUMBER, ['/x'], equal],
    ['non-integral float where a float is expected', 2.5, 2.5, STRICT, NUMBER, undefined, equal],
    // float_to_int: schema `integer`, the actual written as 5.0
    ['5.0 where an integer is expected (default)', 5, 5, DEFAULT, INTEGER, ['/x'], coerced(5, 5, 'float_to_int')],
    ['5.0 where an integer is expected (bfcl)', 5, 5, BFCL, INTEGER, ['/x'], refused(5, 5, 'float_to_int')],
    ['5 where an integer is expected', 5, 5, STRICT, INTEGER, undefined, equal],
    ['no schema: no int/float distinction', 5, 5, STRICT, undefined, ['/x'], equal],
    [
      '"5.0" where an integer is expected (default)',
      5,
      '5.0',
      DEFAULT,
      INTEGER,
      undefined,
      coerced(5, '5.0', 'numeric_string', 'float_to_int'),
    ],
    ['"5.0" where an integer is expected (bfcl)', 5, '5.0', BFCL, INTEGER, undefined, refused(5, '5.0', 'numeric_string', 'float_to_int')],
    // boolean_string
    ['"true" for true (default)', true, 'true', DEFAULT, undefined, undefined, coerced(true, 'true', 'boolean_string')],
    ['"False" for false (default)', false, ' False ', DEFAULT, undefined, undefined, coerced(false, ' False ', 'boolean_string')],
    ['"true" for true (strict)', true, 'true', STRICT, undefined, undefined, refused(true, 'true', 'boolean_string')],
    ['false for "false" (default)', 'false', false, DEFAULT, undefined, undefined, coerced('false', false, 'boolean_string')],
    [
      '"yes" is not a boolean',
      true,
      'yes',
      DEFAULT,
      undefined,
      undefined,
      {
        score: 0,
        passed: false,
        entries: [{ path: '/x', kind: 'type_mismatch', expected: true, actual: 'yes', message: 'expected boolean, got string' }],
      },
    ],
    [
      '1 is not true',
      true,
      1,
      DEFAULT,
      undefined,
      undefined,
      {
        score: 0,
        passed: false,
        entries: [{ path: '/x', kind: 'type_mismatch', expected: true, actual: 1, message: 'expected boolean, got integer' }],
      },
    ],
    // enum_case
    ['enum value in another case (default)', 'Celsius', 'celsius', DEFAULT, ENUM, undefined, coerced('Celsius', 'celsius', 'enum_case')],
    [
      'enum value in another case (strict)',
      'Celsius',
      'CELSIUS',
      STRICT,
      ENUM,
      undefined,
      refused('Celsius', 'CELSIUS', 'enum_case', 'string_case'),
    ],
    [
      'enum value in another case (bfcl: its normalisation lower-cases)',
      'Celsius',
      'celsius',
      BFCL,
      ENUM,
      undefined,
      coerced('Celsius', 'celsius', 'string_bfcl'),
    ],
    [
      'free text in another case is not enum_case',
      'Paris',
      'paris',
      DEFAULT,
      undefined,
      undefined,
      refused('Paris', 'paris', 'string_case'),
    ],
    // iso_date
    [
      'date vs midnight UTC date-time (default)',
      '2024-01-05',
      '2024-01-05T00:00:00Z',
      DEFAULT,
      undefined,
      undefined,
      coerced('2024-01-05', '2024-01-05T00:00:00Z', 'iso_date'),
    ],
    [
      'same instant, other offsets (default)',
      '2024-01-05T02:00:00+02:00',
      '2024-01-05T00:00:00Z',
      DEFAULT,
      { type: 'string', format: 'date-time' },
      undefined,
      coerced('2024-01-05T02:00:00+02:00', '2024-01-05T00:00:00Z', 'iso_date'),
    ],
    [
      'date vs date-time (strict)',
      '2024-01-05',
      '2024-01-05T00:00:00Z',
      STRICT,
      undefined,
      undefined,
      refused('2024-01-05', '2024-01-05T00:00:00Z', 'iso_date'),
    ],
    [
      'other day',
      '2024-01-05',
      '2024-01-06',
      DEFAULT,
      undefined,
      undefined,
      { score: 0, passed: false, entries: [{ path: '/x', kind: 'mismatch', expected: '2024-01-05', actual: '2024-01-06' }] },
    ],
    // string normalisation
    [
      'whitespace (default)',
      'New York',
      '  New   York ',
      DEFAULT,
      undefined,
      undefined,
      coerced('New York', '  New   York ', 'string_whitespace'),
    ],
    ['whitespace (strict)', 'New York', 'New  York', STRICT, undefined, undefined, refused('New York', 'New  York', 'string_whitespace')],
    ['case (case_whitespace)', 'New York', 'new york', CASE_WS, undefined, undefined, coerced('New York', 'new york', 'string_case')],
    [
      'case and whitespace (case_whitespace)',
      'New York',
      ' NEW  YORK',
      CASE_WS,
      undefined,
      undefined,
      coerced('New York', ' NEW  YORK', 'string_whitespace', 'string_case'),
    ],
    [
      'bfcl punctuation (bfcl)',
      'April 1, 2024',
      'april 1 2024',
      BFCL,
      undefined,
      undefined,
      coerced('April 1, 2024', 'april 1 2024', 'string_bfcl'),
    ],
    [
      'bfcl punctuation (default)',
      'April 1, 2024',
      'april 1 2024',
      DEFAULT,
      undefined,
      undefined,
      refused('April 1, 2024', 'april 1 2024', 'string_bfcl'),
    ],
    // numeric tolerance
    ['within the policy tolerance', 100, 100.5, TOLERANT, undefined, undefined, coerced(100, 100.5, 'numeric_tolerance')],
    [
      'outside the policy tolerance',
      100,
      102,
      TOLERANT,
      undefined,
      undefined,
      { score: 0, passed: false, entries: [{ path: '/x', kind: 'mismatch', expected: 100, actual: 102 }] },
    ],
    ['within the absolute tolerance', 0, 0.4, ABS_TOLERANT, undefined, undefined, coerced(0, 0.4, 'numeric_tolerance')],
    [
      'no tolerance by default',
      100,
      100.0001,
      DEFAULT,
      undefined,
      undefined,
      { score: 0, passed: false, entries: [{ path: '/x', kind: 'mismatch', expected: 100, actual: 100.0001 }] },
    ],
    [
      'within tolerance and int where float expected',
      100,
      101,
      TOLERANT,
      NUMBER,
      undefined,
      coerced(100, 101, 'int_to_float', 'numeric_tolerance'),
    ],
    // unordered arrays
    [
      'x-unordered array in another order',
      [1, 2, 3],
      [3, 1, 2],
      STRICT,
      { type: 'array', 'x-unordered': true },
      undefined,
      {
        score: 1,
        passed: true,
        entries: [{ path: '/x', kind: 'coerced', coercions: ['unordered_array'], message: 'elements matched in another order' }],
      },
    ],
    [
      'uniqueItems array in another order',
      ['a', 'b'],
      ['b', 'a'],
      STRICT,
      { type: 'array', uniqueItems: true },
      undefined,
      {
        score: 1,
        passed: true,
        entries: [{ path: '/x', kind: 'coerced', coercions: ['unordered_array'], message: 'elements matched in another order' }],
      },
    ],
    [
      'ordered array in another order',
      [1, 2],
      [2, 1],
      DEFAULT,
      { type: 'array' },
      undefined,
      {
        score: 0,
        passed: false,
        entries: [
          { path: '/x/0', kind: 'mismatch', expected: 1, actual: 2 },
          { path: '/x/1', kind: 'mismatch', expected: 2, actual: 1 },
        ],
      },
    ],
    [
      'arrays unordered by policy',
      [1, 2],
      [2, 1],
      resolveCoercionPolicy('default', { arrays_ordered_by_default: false }),
      undefined,
      undefined,
      {
        score: 1,
        passed: true,
        entries: [{ path: '/x', kind: 'coerced', coercions: ['unordered_array'], message: 'elements matched in another order' }],
      },
    ],
  ])('%s', (_name, expected, actual, policy, schema, floatPaths, result) => {
    expect(matchArg(expected, actual, policy, schema, floatPaths)).toEqual(result);
  });
});

describe('matchValue: schema defaults (coercion default_value)', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: { unit: { type: 'string', default: 'celsius' }, days: { type: 'integer', default: 1 } },
  };
  const ctx = { policy: DEFAULT, path: '', schema };

  it.each<[string, ExpectedValue, Record<string, unknown>, MatchResult]>([
    [
      'an omitted argument equals its declared default',
      { unit: 'celsius' },
      {},
      {
        score: 1,
        passed: true,
        entries: [
          {
            path: '/unit',
            kind: 'coerced',
            expected: 'celsius',
            actual: 'celsius',
            coercions: ['default_value'],
            message: 'omitted; the schema default applies',
          },
        ],
      },
    ],
    [
      'an omitted argument whose default differs is missing',
      { unit: 'fahrenheit' },
      {},
      { score: 0, passed: false, entries: [{ path: '/unit', kind: 'missing', expected: 'fahrenheit' }] },
    ],
    [
      'an explicit default the case omits is not extra',
      {},
      { unit: 'celsius' },
      {
        score: 1,
        passed: true,
        entries: [
          {
            path: '/unit',
            kind: 'coerced',
            expected: 'celsius',
            actual: 'celsius',
            coercions: ['default_value'],
            message: 'not asked for, but equal to the schema default',
          },
        ],
      },
    ],
    [
      'an explicit default is accepted after coercion',
      {},
      { days: '1' },
      {
        score: 1,
        passed: true,
        entries: [
          {
            path: '/days',
            kind: 'coerced',
            expected: 1,
            actual: '1',
            coercions: ['default_value'],
            message: 'not asked for, but equal to the schema default',
          },
        ],
      },
    ],
    [
      'a non-default value the case omits is extra',
      {},
      { unit: 'kelvin' },
      { score: 0, passed: false, entries: [{ path: '/unit', kind: 'extra', actual: 'kelvin' }] },
    ],
    ['an explicit default equal to the expected value', { unit: 'celsius' }, { unit: 'celsius' }, { score: 1, passed: true, entries: [] }],
  ])('%s', (_name, expected, actual, result) => {
    expect(matchValue(expected, actual, ctx)).toEqual(result);
  });

  it('no default applies under a policy without schema (no schema given)', () => {
    expect(matchValue({ unit: 'celsius' }, {}, { policy: DEFAULT, path: '' })).toEqual({
      score: 0,
      passed: false,
      entries: [{ path: '/unit', kind: 'missing', expected: 'celsius' }],
    });
  });
});
