import { describe, expect, it } from 'vitest';
import { importJson, importJsonl } from './jsonImporter.js';
import { linesOf } from './lines.js';
import type { ImportRowError } from './types.js';

const minimal = (id?: string, extra: Record<string, unknown> = {}) => ({
  ...(id === undefined ? {} : { id }),
  nl_query: 'What is the weather in Paris?',
  expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris' } }],
  ...extra,
});

/** The case TestCaseSchema makes of `minimal(id)` with the importer's source. */
const parsed = (id: string, source = 'native') => ({
  id,
  nl_query: 'What is the weather in Paris?',
  expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris' } }],
  alternative_tool_calls: [],
  call_order: 'any',
  expected_facts: [],
  metadata: { complexity_level: 1, tags: [], source },
});

const jsonl = (...rows: unknown[]) => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n');

describe('importJson', () => {
  it.each([
    ['an array', [minimal('a'), minimal('b')]],
    ['{ test_cases }', { test_cases: [minimal('a'), minimal('b')] }],
    ['{ cases }', { cases: [minimal('a'), minimal('b')] }],
  ])('reads %s', async (_label, doc) => {
    const result = await importJson(JSON.stringify(doc));
    expect(result).toEqual({ cases: [parsed('a'), parsed('b')], catalogs: [], errors: [], notes: [], total_rows: 2 });
  });

  it.each<[string, string, ImportRowError]>([
    ['text that is not JSON', '[{"id": 1', { row: 0, field: '', reason: expect.stringMatching(/^not valid JSON: /) as unknown as string }],
    ['a JSON scalar', '42', { row: 0, field: '', reason: 'expected a JSON array of cases, or an object with "test_cases" or "cases"' }],
    [
      'an object without a case list',
      '{"items": []}',
      { row: 0, field: '', reason: 'expected a JSON array of cases, or an object with "test_cases" or "cases"' },
    ],
    [
      'extra top-level fields',
      '{"cases": [], "version": 2}',
      { row: 0, field: '', reason: 'unexpected top-level field(s) "version": expected only "cases"' },
    ],
    ['a case list that is not a list', '{"test_cases": {}}', { row: 0, field: '', reason: '"test_cases" must be an array of cases' }],
  ])('rejects %s as a whole (row 0)', async (_label, text, error) => {
    expect(await importJson(text)).toEqual({ cases: [], catalogs: [], errors: [error], notes: [], total_rows: 0 });
  });

  it('numbers rows by array position and names the field', async () => {
    const result = await importJson(JSON.stringify([minimal('a'), minimal('b', { call_order: 'sometimes' })]));
    expect(result.errors).toEqual([{ row: 2, id: 'b', field: 'call_order', reason: 'must be one of "any", "strict", "dependency"' }]);
    expect(result.cases).toEqual([]);
  });

  it('strips a byte-order mark', async () => {
    expect((await importJson(`\uFEFF${JSON.stringify([minimal('a')])}`)).cases).toEqual([parsed('a')]);
  });
});

describe('importJsonl', () => {
  it('reads one case per line, skipping blank lines, CRLF and a BOM; rows are line numbers', async () => {
    const text = `\uFEFF${JSON.stringify(minimal('a'))}\r\n\r\n   \n${JSON.stringify(minimal('b'))}\n`;
    const result = await importJsonl(text);
    expect(result).toEqual({ cases: [parsed('a'), parsed('b')], catalogs: [], errors: [], notes: [], total_rows: 2 });
  });

  it('names the line of a row that is not JSON', async () => {
    const result = await importJsonl(jsonl(minimal('a'), '', '{"id": "b", nl_query', minimal('c')));
    expect(result).toEqual({
      cases: [],
      catalogs: [],
      errors: [{ row: 3, field: '', reason: expect.stringMatching(/^not valid JSON: /) }],
      notes: [],
      total_rows: 3,
    });
  });

  it.each<[string, unknown, Omit<ImportRowError, 'row'>[]]>([
    ['a JSON array instead of an object', [1, 2], [{ field: '', reason: 'Invalid input: expected object, received array' }]],
    [
      'a missing query',
      { id: 'x', expected_tool_calls: [] },
      [{ id: 'x', field: 'nl_query', reason: 'required: a case has a question (nl_query) or a conversation (turns)' }],
    ],
    ['an unknown field', minimal('x', { priority: 3 }), [{ id: 'x', field: 'priority', reason: 'unknown field' }]],
    [
      'an unknown matcher',
      minimal('x', { expected_tool_calls: [{ tool_name: 't', arguments: { a: { $oneof: [1] } } }] }),
      [
        {
          id: 'x',
          field: 'expected_tool_calls.0.arguments.a.$oneof',
          reason: 'unknown matcher "$oneof" (matchers: $value, $one_of, $optional, $range, $tolerance, $unordered, $any, $from)',
        },
      ],
    ],
    [
      'an empty $one_of',
      minimal('x', { expected_tool_calls: [{ tool_name: 't', arguments: { a: { $one_of: [] } } }] }),
      [{ id: 'x', field: 'expected_tool_calls.0.arguments.a.$one_of', reason: 'Too small: expected array to have >=1 items' }],
    ],
    [
      'a complexity out of range',
      minimal('x', { metadata: { complexity_level: 9 } }),
      [{ id: 'x', field: 'metadata.complexity_level', reason: 'Too big: expected number to be <=5' }],
    ],
    [
      'raw data not aligned with the calls',
      minimal('x', { expected_raw_data: [{}, {}] }),
      [{ id: 'x', field: 'expected_raw_data', reason: 'has 2 entries but expected_tool_calls has 1; they are aligned by index' }],
    ],
    ['an empty id', minimal('', {}), [{ field: 'id', reason: 'Too small: expected string to have >=1 characters' }]],
    ['a numeric id', minimal(undefined, { id: 7 }), [{ field: 'id', reason: 'Invalid input: expected string, received number' }]],
    [
      'a coercion that is neither a name nor a policy',
      minimal('x', { coercion: 'lenient' }),
      [
        {
          id: 'x',
          field: 'coercion',
          reason: expect.stringMatching(/^matches none of the accepted forms \(.*"default".*\)$/) as unknown as string,
        },
      ],
    ],
  ])('reports %s with row, field and reason', async (_label, row, errors) => {
    const result = await importJsonl(jsonl(minimal('ok'), row));
    expect(result.errors).toEqual(errors.map((e) => ({ row: 2, ...e })));
    expect(result.cases).toEqual([]);
    expect(result.total_rows).toBe(2);
  });

  it('keeps the good rows with partial: true', async () => {
    const result = await importJsonl(jsonl(minimal('a'), '{oops', minimal('c', { nl_query: '' })), { partial: true });
    expect(result.cases).toEqual([parsed('a')]);
    expect(result.errors.map((e) => [e.row, e.field])).toEqual([
      [2, ''],
      [3, 'nl_query'],
    ]);
  });

  it('rejects a duplicate id on the later row, naming the first', async () => {
    const result = await importJsonl(jsonl(minimal('a'), minimal('b'), minimal('a')), { partial: true });
    expect(result.cases).toEqual([parsed('a'), parsed('b')]);
    expect(result.errors).toEqual([{ row: 3, id: 'a', field: 'id', reason: 'duplicate id "a" (first used on row 1)' }]);
  });

  it('keeps source ids as they are and generates (and notes) only missing ones', async () => {
    let n = 0;
    const idFactory = () => `gen-${++n}`;
    const result = await importJsonl(jsonl(minimal('simple_0'), minimal(), minimal(undefined, { id: null }), minimal('42 is fine too')), {
      idFactory,
    });
    expect(result.cases.map((c) => c.id)).toEqual(['simple_0', 'gen-1', 'gen-2', '42 is fine too']);
    expect(result.notes).toEqual([
      { row: 2, id: 'gen-1', field: 'id', message: 'no id in the source; generated "gen-1"' },
      { row: 3, id: 'gen-2', field: 'id', message: 'no id in the source; generated "gen-2"' },
    ]);
  });

  it('generates UUIDs by default', async () => {
    const [testCase] = (await importJsonl(jsonl(minimal()))).cases;
    expect(testCase?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('fills metadata.source from the option only where a case has none', async () => {
    const result = await importJsonl(jsonl(minimal('a'), minimal('b', { metadata: { source: 'bfcl:simple', tags: ['t'] } })), {
      source: 'upload-7',
    });
    expect(result.cases.map((c) => c.metadata.source)).toEqual(['upload-7', 'bfcl:simple']);
  });

  it('reads lines from an async iterable, and a byte stream through linesOf', async () => {
    async function* lines() {
      yield JSON.stringify(minimal('a'));
      yield '';
      yield JSON.stringify(minimal('b'));
    }
    expect((await importJsonl(lines())).cases).toEqual([parsed('a'), parsed('b')]);

    const bytes = new TextEncoder().encode(jsonl(minimal('é1'), minimal('é2')));
    const chunks = [bytes.slice(0, 7), bytes.slice(7, 60), bytes.slice(60)]; // splits inside "é" and inside lines
    expect((await importJsonl(linesOf(chunks))).cases.map((c) => c.id)).toEqual(['é1', 'é2']);
  });
});
