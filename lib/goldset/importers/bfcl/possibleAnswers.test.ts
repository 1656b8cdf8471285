import { describe, expect, it } from 'vitest';
import type { ExpectedValue } from '../../../domain/index.js';
import type { BfclFunctionDoc } from './functionDocs.js';
import { groundTruthCalls, toExpectedCall } from './possibleAnswers.js';

const doc = (properties: Record<string, unknown>): BfclFunctionDoc => ({
  name: 'f',
  description: '',
  parameters: { type: 'dict', properties },
});

describe('toExpectedCall: one parameter', () => {
  it.each<[string, unknown, unknown[], ExpectedValue]>([
    ['one value -> the value', { type: 'integer' }, [5], 5],
    ['several -> $one_of', { type: 'string' }, ['inches', 'in'], { $one_of: ['inches', 'in'] }],
    ['with "" -> $optional + $one_of', { type: 'string' }, ['units', ''], { $optional: true, $one_of: ['units'] }],
    ['"" first', { type: 'integer' }, ['', 0], { $optional: true, $one_of: [0] }],
    ['only "" -> omit it (or "")', { type: 'float' }, [''], { $optional: true, $one_of: [''] }],
    ['duplicates dropped', { type: 'float' }, [1.256e-6, 1.256e-6, ''], { $optional: true, $one_of: [1.256e-6] }],
    [
      'list answers stay literal lists',
      { type: 'array', items: { type: 'string' } },
      [
        ['a', 'b'],
        ['b', 'a'],
      ],
      {
        $one_of: [
          ['a', 'b'],
          ['b', 'a'],
        ],
      },
    ],
    ['an empty list answer', { type: 'array' }, [[], ''], { $optional: true, $one_of: [[]] }],
    [
      'a dict answer -> per-key expectations',
      { type: 'dict', properties: {} },
      [{ department: ['Science'], school: ['Bluebird High School', 'Bluebird HS'], year: ['', 2024] }],
      { department: 'Science', school: { $one_of: ['Bluebird High School', 'Bluebird HS'] }, year: { $optional: true, $one_of: [2024] } },
    ],
    ['several dict answers', { type: 'HashMap' }, [{ a: [1] }, { b: [2] }], { $one_of: [{ a: 1 }, { b: 2 }] }],
    [
      'a list of dicts',
      { type: 'array', items: { type: 'dict' } },
      [
        [
          { field: ['age'], value: ['25'] },
          { field: ['job'], value: ['engineer', 'Engineer'] },
        ],
      ],
      [
        { field: 'age', value: '25' },
        { field: 'job', value: { $one_of: ['engineer', 'Engineer'] } },
      ],
    ],
    [
      'a literal dict for a dict parameter (values not lists)',
      { type: 'HashMap' },
      [{ format: 'epoch_millis' }],
      { format: 'epoch_millis' },
    ],
    ['a dict for a string parameter stays literal', { type: 'string' }, [{ a: [1] }], { a: [1] }],
    ['no doc for the parameter: dicts of lists are read as dict answers', undefined, [{ a: [1, 2] }], { a: { $one_of: [1, 2] } }],
  ])('%s', (_label, schema, values, expected) => {
    const result = toExpectedCall(
      { name: 'f', params: { p: values }, field: 'ground_truth.0.f' },
      doc(schema === undefined ? {} : { p: schema }),
    );
    expect(result).toEqual({
      call: { tool_name: 'f', arguments: { p: expected } },
      notes:
        schema === undefined
          ? [
              {
                field: 'ground_truth.0.f.p',
                reason: 'is not declared in the function docs (BFCL passes this case only when it is optional and omitted)',
              },
            ]
          : [],
    });
  });

  it('reports an empty list of acceptable values', () => {
    expect(toExpectedCall({ name: 'f', params: { p: [] }, field: 'ground_truth.0.f' }, doc({ p: { type: 'integer' } }))).toEqual({
      problems: [{ field: 'ground_truth.0.f.p', reason: 'the list of acceptable values is empty' }],
    });
  });
});

describe('groundTruthCalls', () => {
  it.each<[string, unknown, ReturnType<typeof groundTruthCalls>]>([
    [
      'a list of calls',
      [{ f: { a: [1] } }, { f: { a: [2] } }],
      {
        calls: [
          { name: 'f', params: { a: [1] }, field: 'ground_truth.0.f' },
          { name: 'f', params: { a: [2] }, field: 'ground_truth.1.f' },
        ],
      },
    ],
    [
      'one object (older files), several functions',
      { f: { a: [1] }, g: {} },
      {
        calls: [
          { name: 'f', params: { a: [1] }, field: 'ground_truth.f' },
          { name: 'g', params: {}, field: 'ground_truth.g' },
        ],
      },
    ],
    [
      'a call that is not an object',
      ['f(a=1)'],
      { problems: [{ field: 'ground_truth.0', reason: 'expected {"<function name>": {"<parameter>": [acceptable values]}}' }] },
    ],
    [
      'parameters that are not an object',
      [{ f: [1] }],
      { problems: [{ field: 'ground_truth.0.f', reason: 'expected an object of parameter -> list of acceptable values' }] },
    ],
    [
      'a value that is not a list',
      [{ f: { a: 1 } }],
      { problems: [{ field: 'ground_truth.0.f.a', reason: 'expected a list of acceptable values' }] },
    ],
  ])('%s', (_label, groundTruth, expected) => {
    expect(groundTruthCalls(groundTruth)).toEqual(expected);
  });
});
