import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentHash, type ToolDefinition } from '../../../domain/index.js';
import { importBfcl } from './bfclImporter.js';
import { BFCL_SOURCE_TEXT_POLICY } from './questionToCase.js';

const fixture = (name: string) => readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url), 'utf8');
const QUESTIONS = fixture('bfcl_questions.jsonl');
const ANSWERS = fixture('bfcl_possible_answers.jsonl');
const jsonl = (...rows: unknown[]) => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n');

const catalogName = (tools: ToolDefinition[]) => `bfcl-${contentHash(tools).slice(0, 12)}`;
const catalogOf = (tools: ToolDefinition[]) => ({
  name: catalogName(tools),
  tool_schema_version: '1',
  description: 'Function docs of a BFCL question file, converted to JSON Schema',
  tools,
});
const bfclMetadata = (category: string, complexity: number) => ({
  complexity_level: complexity,
  tags: ['bfcl', category],
  category,
  source: `bfcl:${category}`,
  bfcl: expect.objectContaining({ category }),
});

describe('importBfcl on real BFCL lines', async () => {
  const result = await importBfcl({ questions: QUESTIONS, answers: ANSWERS });
  const byId = (id: string) => result.cases.find((c) => c.id === id);
  const catalogOfCase = (id: string) => result.catalogs.find((c) => c.name === byId(id)?.tool_catalog?.name);

  it('imports every line, keeping BFCL ids, with one catalog per distinct set of docs', () => {
    expect(result.errors).toEqual([]);
    expect(result.total_rows).toBe(26);
    expect(result.cases.map((c) => c.id)).toEqual(
      QUESTIONS.trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: string }).id),
    );
    expect(result.catalogs).toHaveLength(26);
    expect(result.notes).toEqual([
      {
        row: 23,
        id: 'parallel_multiple_12',
        field: 'ground_truth.1.calculate_voltage_difference.permeability',
        message: 'is not declared in the function docs (BFCL passes this case only when it is optional and omitted)',
        file: 'answers',
      },
    ]);
  });

  it('simple: plain values, "" as $optional, coercion bfcl, its catalog', () => {
    const tools: ToolDefinition[] = [
      {
        name: 'calculate_triangle_area',
        description: 'Calculate the area of a triangle given its base and height.',
        parameters: {
          type: 'object',
          properties: {
            base: { type: 'integer', description: 'The base of the triangle.' },
            height: { type: 'integer', description: 'The height of the triangle.' },
            unit: { type: 'string', description: "The unit of measure (defaults to 'units' if not specified)" },
          },
          required: ['base', 'height'],
        },
      },
    ];
    expect(byId('simple_python_0')).toEqual({
      id: 'simple_python_0',
      nl_query: 'Find the area of a triangle with a base of 10 units and height of 5 units.',
      expected_tool_calls: [
        { tool_name: 'calculate_triangle_area', arguments: { base: 10, height: 5, unit: { $optional: true, $one_of: ['units'] } } },
      ],
      alternative_tool_calls: [],
      call_order: 'any',
      expected_facts: [],
      tool_catalog: { name: catalogName(tools), version: '1' },
      coercion: 'bfcl',
      metadata: bfclMetadata('simple_python', 1),
    });
    expect(catalogOfCase('simple_python_0')).toEqual(catalogOf(tools));
  });

  it('simple with a nested dict answer: per-key expectations', () => {
    expect(byId('simple_python_89')?.expected_tool_calls).toEqual([
      {
        tool_name: 'db_fetch_records',
        arguments: {
          database_name: 'StudentDB',
          table_name: 'students',
          conditions: { department: 'Science', school: { $one_of: ['Bluebird High School', 'Bluebird HS'] } },
          fetch_limit: { $optional: true, $one_of: [0] },
        },
      },
    ]);
  });

  it('multiple: keeps dotted names and defaults, drops `optional` and `format`', () => {
    const catalog = catalogOfCase('multiple_0');
    expect(catalog?.tools.map((t) => t.name)).toEqual(['triangle_properties.get', 'circle_properties.get']);
    expect(catalog?.tools[1]?.parameters).toEqual({
      type: 'object',
      properties: {
        radius: { type: 'number', description: 'The length of radius of the circle.' },
        get_area: {
          type: 'boolean',
          description: 'A flag to determine whether to calculate the area of circle. Default is true.',
          default: true,
        },
        get_circumference: {
          type: 'boolean',
          description: 'A flag to determine whether to calculate the circumference of circle. Default is true.',
          default: true,
        },
      },
      required: ['radius'],
    });
    expect(byId('multiple_0')?.metadata).toEqual(bfclMetadata('multiple', 2));
    expect(catalogOfCase('multiple_5')?.tools[0]?.parameters['properties']).toEqual({
      city: { type: 'string', description: 'The city for which to retrieve the weather.' },
      date: { type: 'string', description: 'The date for which to retrieve the historical weather data in the format YYYY-MM-DD.' },
    });
  });

  it('parallel: every call expected, in any order', () => {
    expect(byId('parallel_2')).toMatchObject({
      expected_tool_calls: [
        { tool_name: 'calculate_resistance', arguments: { length: 5, area: 0.01, resistivity: { $optional: true, $one_of: ['copper'] } } },
        { tool_name: 'calculate_resistance', arguments: { length: 5, area: 0.01, resistivity: 'aluminum' } },
      ],
      call_order: 'any',
      metadata: bfclMetadata('parallel', 3),
    });
  });

  it('parallel_multiple: `[""]` alone means "omit it"', () => {
    expect(byId('parallel_multiple_3')).toMatchObject({
      expected_tool_calls: [
        {
          tool_name: 'get_rectangle_property',
          arguments: { perimeter: 14, area: 15, property: 'width', tolerance: { $optional: true, $one_of: [''] } },
        },
        {
          tool_name: 'get_rectangle_property',
          arguments: { perimeter: 14, area: 15, property: 'length', tolerance: { $optional: true, $one_of: [0.1] } },
        },
      ],
      metadata: bfclMetadata('parallel_multiple', 4),
    });
  });

  it('irrelevance: no call expected, the docs still in a catalog', () => {
    const tools = catalogOfCase('irrelevance_0')?.tools ?? [];
    expect(byId('irrelevance_0')).toEqual({
      id: 'irrelevance_0',
      nl_query: 'Calculate the area of a triangle given the base is 10 meters and height is 5 meters.',
      expected_tool_calls: [],
      alternative_tool_calls: [],
      call_order: 'any',
      expected_facts: [],
      tool_catalog: { name: catalogName(tools), version: '1' },
      coercion: 'bfcl',
      metadata: bfclMetadata('irrelevance', 1),
    });
    expect(tools.map((t) => t.name)).toEqual(['determine_body_mass_index']);
  });
});

const simpleQuestion = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  question: [[{ role: 'user', content: 'Factorial of 5?' }]],
  function: [
    {
      name: 'math.factorial',
      description: 'Factorial.',
      parameters: { type: 'dict', properties: { number: { type: 'integer' } }, required: ['number'] },
    },
  ],
  ...extra,
});
const simpleAnswer = (id: string, value: unknown = [5]) => ({ id, ground_truth: [{ 'math.factorial': { number: value } }] });

describe('importBfcl: shapes and options', () => {
  it('shares one catalog among questions with the same docs, and streams lines', async () => {
    async function* lines() {
      yield JSON.stringify(simpleQuestion('simple_0'));
      yield JSON.stringify(simpleQuestion('simple_1'));
    }
    const result = await importBfcl({ questions: lines(), answers: jsonl(simpleAnswer('simple_0'), simpleAnswer('simple_1', [6])) });
    expect(result.errors).toEqual([]);
    expect(result.catalogs).toHaveLength(1);
    expect(result.cases.map((c) => [c.tool_catalog?.name, c.expected_tool_calls[0]?.arguments])).toEqual([
      [result.catalogs[0]?.name, { number: 5 }],
      [result.catalogs[0]?.name, { number: 6 }],
    ]);
  });

  it('reads older files: a plain-string question, one function object, one ground-truth object', async () => {
    const question = { id: 'simple_7', question: 'Factorial of 5?', function: simpleQuestion('x').function[0] };
    const result = await importBfcl({
      questions: jsonl(question),
      answers: jsonl({ id: 'simple_7', ground_truth: { 'math.factorial': { number: [5] } } }),
    });
    expect(result.errors).toEqual([]);
    expect(result.cases[0]).toMatchObject({
      nl_query: 'Factorial of 5?',
      expected_tool_calls: [{ tool_name: 'math.factorial', arguments: { number: 5 } }],
    });
  });

  it('joins a system prompt and the question into nl_query, with a note; reads a ground truth inside the question line', async () => {
    const question = simpleQuestion('live_simple_0-0-0', {
      question: [
        [
          { role: 'system', content: 'Use metric units.' },
          { role: 'user', content: 'Factorial of 5?' },
        ],
      ],
      ground_truth: [{ 'math.factorial': { number: [5] } }],
    });
    const result = await importBfcl({ questions: jsonl(question) });
    expect(result.errors).toEqual([]);
    expect(result.cases[0]).toMatchObject({
      nl_query: '[system] Use metric units.\n\n[user] Factorial of 5?',
      expected_tool_calls: [{ tool_name: 'math.factorial', arguments: { number: 5 } }],
      metadata: bfclMetadata('live_simple', 5),
    });
    expect(result.notes).toEqual([
      {
        row: 1,
        id: 'live_simple_0-0-0',
        field: 'question',
        message: '2 messages (system, user) joined into nl_query as "[role] content" paragraphs',
      },
    ]);
  });

  it('uses the category option for every row, and the source option', async () => {
    const result = await importBfcl(
      { questions: jsonl(simpleQuestion('my-case')), answers: jsonl(simpleAnswer('my-case')), category: 'parallel' },
      { source: 'bfcl:v4' },
    );
    expect(result.cases[0]?.metadata).toEqual({
      complexity_level: 3,
      tags: ['bfcl', 'parallel'],
      category: 'parallel',
      source: 'bfcl:v4',
      bfcl: expect.objectContaining({ category: 'parallel' }),
    });
  });

  it('widens a parameter type to the answer type (BFCL "variable" rule) and says so', async () => {
    const result = await importBfcl({ questions: jsonl(simpleQuestion('simple_0')), answers: jsonl(simpleAnswer('simple_0', ['n'])) });
    expect(result.catalogs[0]?.tools[0]?.parameters['properties']).toEqual({ number: { type: ['integer', 'string'] } });
    expect(result.notes).toEqual([
      {
        row: 1,
        id: 'simple_0',
        field: 'function.0.parameters.properties.number.type',
        message: 'widened to ["integer","string"]: the possible answer "n" is a string (BFCL accepts values of the answer\'s type)',
      },
    ]);
  });

  it('Java: string parameters and a policy that takes numeric and boolean strings', async () => {
    const question = {
      id: 'java_0',
      question: [[{ role: 'user', content: 'Set the flag.' }]],
      function: [
        {
          name: 'Flags.set',
          description: 'Sets.',
          parameters: { type: 'dict', properties: { on: { type: 'boolean', description: 'On.' } }, required: ['on'] },
        },
      ],
    };
    const result = await importBfcl({
      questions: jsonl(question),
      answers: jsonl({ id: 'java_0', ground_truth: [{ 'Flags.set': { on: [true] } }] }),
    });
    expect(result.cases[0]).toMatchObject({
      coercion: BFCL_SOURCE_TEXT_POLICY,
      expected_tool_calls: [{ arguments: { on: true } }],
      metadata: bfclMetadata('java', 1),
    });
    expect(BFCL_SOURCE_TEXT_POLICY).toMatchObject({
      numeric_string: true,
      boolean_string: true,
      string_normalization: 'bfcl',
      float_to_int: false,
    });
    expect(result.catalogs[0]?.tools[0]?.parameters['properties']).toEqual({
      on: { type: 'string', description: 'On. This is Java boolean type parameter in string representation.' },
    });
  });
});

describe('importBfcl: errors name the row, the field and the reason', () => {
  it.each<[string, string, string | undefined, Record<string, unknown>[]]>([
    [
      'a question line that is not JSON',
      '{"id": "simple_0", ',
      jsonl(simpleAnswer('simple_0')),
      [{ row: 1, field: '', reason: expect.stringMatching(/^not valid JSON/) }],
    ],
    [
      'a question without id',
      jsonl({ question: 'x', function: [] }),
      undefined,
      [{ row: 1, field: 'id', reason: 'expected a non-empty string' }],
    ],
    [
      'an id without a category',
      jsonl(simpleQuestion('my-case')),
      jsonl(simpleAnswer('my-case')),
      [
        {
          row: 1,
          id: 'my-case',
          field: 'id',
          reason: 'cannot tell the BFCL category from this id (expected <category>_<n>); pass the category option',
        },
      ],
    ],
    [
      'an agentic category',
      jsonl(simpleQuestion('memory_kv_0')),
      undefined,
      [{ row: 1, id: 'memory_kv_0', field: '', reason: expect.stringMatching(/is agentic \(memory or web search/) }],
    ],
    [
      'no answer file',
      jsonl(simpleQuestion('simple_0')),
      undefined,
      [{ row: 1, id: 'simple_0', field: 'ground_truth', reason: 'no possible answer: give the possible-answer file (answers)' }],
    ],
    [
      'no answer for this id',
      jsonl(simpleQuestion('simple_0')),
      jsonl(simpleAnswer('simple_9')),
      [{ row: 1, id: 'simple_0', field: 'ground_truth', reason: 'no possible answer with id "simple_0" in the answer file' }],
    ],
    [
      'an answer naming a function the question does not have',
      jsonl(simpleQuestion('simple_0')),
      jsonl({ id: 'simple_0', ground_truth: [{ 'math.gamma': { number: [5] } }] }),
      [
        {
          row: 1,
          id: 'simple_0',
          field: 'ground_truth.0.math.gamma',
          reason: 'function "math.gamma" is not among the question\'s function docs',
          file: 'answers',
        },
      ],
    ],
    [
      'an answer value that is not a list',
      jsonl(simpleQuestion('simple_0')),
      jsonl(simpleAnswer('simple_0', 5)),
      [
        {
          row: 1,
          id: 'simple_0',
          field: 'ground_truth.0.math.factorial.number',
          reason: 'expected a list of acceptable values',
          file: 'answers',
        },
      ],
    ],
    [
      'an answer line that is not JSON',
      jsonl(simpleQuestion('irrelevance_0')),
      '{"id": ',
      [{ row: 1, field: '', reason: expect.stringMatching(/^not valid JSON/), file: 'answers' }],
    ],
    [
      'a repeated answer id',
      jsonl(simpleQuestion('simple_0')),
      jsonl(simpleAnswer('simple_0'), simpleAnswer('simple_0')),
      [{ row: 2, id: 'simple_0', field: 'id', reason: 'duplicate id "simple_0" (first used on row 1)', file: 'answers' }],
    ],
    [
      'two functions with one name',
      jsonl(simpleQuestion('simple_0', { function: [...simpleQuestion('x').function, ...simpleQuestion('x').function] })),
      jsonl(simpleAnswer('simple_0')),
      [{ row: 1, id: 'simple_0', field: 'function.1.name', reason: 'duplicate tool name "math.factorial"' }],
    ],
    [
      'a function name tools cannot have',
      jsonl(simpleQuestion('irrelevance_0', { function: [{ name: 'has space', parameters: { type: 'dict', properties: {} } }] })),
      undefined,
      [{ row: 1, id: 'irrelevance_0', field: 'function.0.name', reason: 'tool names are 1-128 chars of letters, digits, _ . -' }],
    ],
  ])('%s', async (_label, questions, answers, errors) => {
    const result = await importBfcl({ questions, ...(answers === undefined ? {} : { answers }) });
    expect(result.errors).toEqual(errors);
    expect(result.cases).toEqual([]);
    expect(result.catalogs).toEqual([]);
  });

  it('rejects a repeated question id on the later row; partial keeps the good rows and their catalogs', async () => {
    const questions = jsonl(simpleQuestion('simple_0'), simpleQuestion('simple_0'), simpleQuestion('irrelevance_3', { function: [] }));
    const result = await importBfcl({ questions, answers: jsonl(simpleAnswer('simple_0'), simpleAnswer('simple_5')) }, { partial: true });
    expect(result.cases.map((c) => c.id)).toEqual(['simple_0', 'irrelevance_3']);
    expect(result.catalogs).toHaveLength(2);
    expect(result.errors).toEqual([{ row: 2, id: 'simple_0', field: 'id', reason: 'duplicate id "simple_0" (first used on row 1)' }]);
    expect(result.notes).toEqual([
      { row: 2, id: 'simple_5', field: 'id', message: 'possible answer without a question in this import', file: 'answers' },
    ]);
    expect(result.total_rows).toBe(3);
  });
});
