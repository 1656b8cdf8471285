import { describe, expect, it } from 'vitest';
import { functionDocsToTools } from './functionDocs.js';

const fn = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'calc.area',
  description: 'Area.',
  parameters: { type: 'dict', properties, required: ['base'] },
  ...extra,
});

describe('functionDocsToTools: BFCL types to JSON Schema', () => {
  it.each<[string, unknown, Record<string, unknown>]>([
    [
      'dict -> object (nested properties and required kept)',
      { type: 'dict', properties: { a: { type: 'float' } }, required: ['a'] },
      { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
    ],
    ['float -> number', { type: 'float', description: 'd' }, { type: 'number', description: 'd' }],
    ['tuple -> array with items', { type: 'tuple', items: { type: 'float' } }, { type: 'array', items: { type: 'number' } }],
    ['any -> no type', { type: 'any', description: 'd' }, { description: 'd' }],
    ['boolean, default kept', { type: 'boolean', default: true, optional: true }, { type: 'boolean', default: true }],
    ['integer with bounds', { type: 'integer', minimum: 1, maximum: 9 }, { type: 'integer', minimum: 1, maximum: 9 }],
    ['string with enum; format dropped', { type: 'string', enum: ['a', 'b'], format: 'date' }, { type: 'string', enum: ['a', 'b'] }],
    [
      'array of dicts',
      { type: 'array', items: { type: 'dict', properties: { f: { type: 'string' } } } },
      { type: 'array', items: { type: 'object', properties: { f: { type: 'string' } } } },
    ],
    ['Java type names map like BFCL (HashMap -> object)', { type: 'HashMap' }, { type: 'object' }],
    [
      'additionalProperties',
      { type: 'dict', additionalProperties: { type: 'integer' } },
      { type: 'object', additionalProperties: { type: 'integer' } },
    ],
  ])('%s', (_label, schema, expected) => {
    const result = functionDocsToTools([fn({ base: schema })], 'python');
    expect(result).toEqual({
      docs: [fn({ base: schema })],
      tools: [
        { name: 'calc.area', description: 'Area.', parameters: { type: 'object', properties: { base: expected }, required: ['base'] } },
      ],
      notes: [],
    });
  });

  it('takes an unknown type as string, with a note', () => {
    const result = functionDocsToTools([fn({ base: { type: 'decimal' } })], 'python');
    expect(result).toMatchObject({
      tools: [{ parameters: { properties: { base: { type: 'string' } } } }],
      notes: [
        {
          field: 'function.0.parameters.properties.base.type',
          reason: 'unknown BFCL type "decimal" taken as string (as BFCL\'s tool conversion does)',
        },
      ],
    });
  });

  it('accepts one function object (older files) and a function without parameters', () => {
    expect(functionDocsToTools({ name: 'ping' }, 'python')).toEqual({
      docs: [{ name: 'ping', description: '', parameters: { type: 'dict', properties: {} } }],
      tools: [{ name: 'ping', description: '', parameters: { type: 'object', properties: {} } }],
      notes: [],
    });
  });

  it.each<[string, unknown, { field: string; reason: string }[]]>([
    ['no function list', 'calc', [{ field: 'function', reason: 'expected a list of function docs' }]],
    ['a doc without a name', [{ description: 'x' }], [{ field: 'function.0', reason: 'expected a function doc with a "name"' }]],
    [
      'parameters that are not an object',
      [{ name: 'f', parameters: [] }],
      [{ field: 'function.0.parameters', reason: 'expected a JSON object' }],
    ],
    [
      'a property schema that is not an object',
      [fn({ base: 'integer' })],
      [{ field: 'function.0.parameters.properties.base', reason: 'expected a JSON object (a parameter schema)' }],
    ],
    [
      'a type that is not a name',
      [fn({ base: { type: 3 } })],
      [{ field: 'function.0.parameters.properties.base.type', reason: 'expected a type name' }],
    ],
  ])('reports %s', (_label, functions, problems) => {
    expect(functionDocsToTools(functions, 'python')).toEqual({ problems });
  });
});

describe('functionDocsToTools: Java and JavaScript (parameters are source text)', () => {
  it('makes every parameter a string and names its type, as BFCL shows these docs to models', () => {
    const java = {
      name: 'Util.run',
      description: 'Runs.',
      parameters: {
        type: 'dict',
        properties: {
          params: { type: 'HashMap', description: 'A map.' },
          ids: { type: 'ArrayList', items: { type: 'integer' }, description: 'Ids.' },
          target: { type: 'any', description: 'Any.' },
        },
        required: ['params'],
      },
    };
    const result = functionDocsToTools([java], 'java');
    expect(result).toEqual({
      docs: [java],
      tools: [
        {
          name: 'Util.run',
          description: 'Runs. Note that the provided function is in Java 8 SDK syntax.',
          parameters: {
            type: 'object',
            properties: {
              params: { type: 'string', description: 'A map. This is Java HashMap type parameter in string representation.' },
              ids: {
                type: 'string',
                description:
                  'Ids. This is Java ArrayList type parameter in string representation. The list elements are of type integer; they are not in string representation.',
              },
              target: { type: 'string', description: 'Any. This parameter can be of any type of Java object in string representation.' },
            },
            required: ['params'],
          },
        },
      ],
      notes: [],
    });
  });

  it('describes a JavaScript dict schema in the description', () => {
    const js = {
      name: 'f',
      description: 'F.',
      parameters: { type: 'dict', properties: { opts: { type: 'dict', description: 'Options.', properties: { a: { type: 'String' } } } } },
    };
    expect(functionDocsToTools([js], 'javascript')).toMatchObject({
      tools: [
        {
          description: 'F. Note that the provided function is in JavaScript syntax.',
          parameters: {
            properties: {
              opts: {
                type: 'string',
                description:
                  'Options. This is JavaScript dict type parameter in string representation. The dictionary entries have the following schema; they are not in string representation. {"a":{"type":"String"}}',
              },
            },
          },
        },
      ],
    });
  });
});
