import { describe, expect, it } from 'vitest';
import { importCsv } from './csvImporter.js';
import type { ImportRowError } from './types.js';

const HEADER = 'id,nl_query,expected_tool_calls,expected_facts,tags,complexity_level,category';
const CALLS = '"[{""tool_name"":""get_weather"",""arguments"":{""city"":""Paris""}}]"';
const csv = (...rows: string[]) => [HEADER, ...rows].join('\n');

const weatherCase = (id: string, extra: { facts?: string[]; tags?: string[]; complexity?: number; category?: string } = {}) => ({
  id,
  nl_query: 'Weather in Paris?',
  expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris' } }],
  alternative_tool_calls: [],
  call_order: 'any',
  expected_facts: extra.facts ?? [],
  metadata: {
    complexity_level: extra.complexity ?? 1,
    tags: extra.tags ?? [],
    ...(extra.category === undefined ? {} : { category: extra.category }),
    source: 'csv',
  },
});

describe('importCsv', () => {
  it('reads every documented column', async () => {
    const header =
      'id,nl_query,expected_tool_calls,alternative_tool_calls,expected_raw_data,expected_nl_response,expected_facts,call_order,category,tags,complexity_level,api_version,author';
    const row = [
      'w1',
      '"Weather in Paris, then Rome?"',
      '"[{""tool_name"":""get_weather"",""arguments"":{""city"":""Paris""}},{""tool_name"":""get_weather"",""arguments"":{""city"":""Rome""}}]"',
      '"[[{""tool_name"":""get_weather_batch"",""arguments"":{""cities"":[""Paris"",""Rome""]}}]]"',
      '"[{""temp"":{""$range"":{""min"":-10,""max"":40}}},{""temp"":{""$any"":true}}]"',
      'Sunny in both.',
      'Paris is sunny|Rome is sunny',
      'strict',
      'weather',
      'smoke; weather|eu',
      '3',
      'v2',
      'ana',
    ].join(',');
    const result = await importCsv(`${header}\n${row}\n`);
    expect(result).toEqual({
      cases: [
        {
          id: 'w1',
          nl_query: 'Weather in Paris, then Rome?',
          expected_tool_calls: [
            { tool_name: 'get_weather', arguments: { city: 'Paris' } },
            { tool_name: 'get_weather', arguments: { city: 'Rome' } },
          ],
          alternative_tool_calls: [[{ tool_name: 'get_weather_batch', arguments: { cities: ['Paris', 'Rome'] } }]],
          call_order: 'strict',
          expected_raw_data: [{ temp: { $range: { min: -10, max: 40 } } }, { temp: { $any: true } }],
          expected_nl_response: 'Sunny in both.',
          expected_facts: ['Paris is sunny', 'Rome is sunny'],
          metadata: {
            complexity_level: 3,
            tags: ['smoke', 'weather', 'eu'],
            category: 'weather',
            api_version: 'v2',
            author: 'ana',
            source: 'csv',
          },
        },
      ],
      catalogs: [],
      errors: [],
      notes: [],
      total_rows: 1,
    });
  });

  it('takes facts and tags as JSON arrays too, and leaves empty cells absent', async () => {
    const result = await importCsv(csv(`a,Weather in Paris?,${CALLS},"[""has | pipe""]","[""x;y""]",,`));
    expect(result.cases).toEqual([weatherCase('a', { facts: ['has | pipe'], tags: ['x;y'] })]);
  });

  it('reads a quoted empty cell as an empty string and an unquoted one as absent', async () => {
    const header = 'id,nl_query,expected_tool_calls,expected_nl_response,author';
    const result = await importCsv(`${header}\na,Weather in Paris?,${CALLS},"",\n`);
    expect(result.cases[0]?.expected_nl_response).toBe('');
    expect(result.cases[0]?.metadata.author).toBeUndefined();
  });

  it('reads CRLF and mixed line ends, blank lines between records, and "" after them', async () => {
    const header = 'id,nl_query,expected_tool_calls,expected_nl_response,author';
    const result = await importCsv(`${header}\r\n\r\na,"Weather\nin Paris?",${CALLS},,x\n\n"b",Weather in Paris?,${CALLS},"",\r\n`);
    expect(result.errors).toEqual([]);
    expect(result.cases.map((c) => [c.id, c.nl_query, c.expected_nl_response, c.metadata.author])).toEqual([
      ['a', 'Weather\nin Paris?', undefined, 'x'],
      ['b', 'Weather in Paris?', '', undefined],
    ]);
  });

  it('generates ids for empty id cells and numbers rows as lines (header = row 1)', async () => {
    const result = await importCsv(
      csv(`,"Weather in Paris?",${CALLS},,,,`, `b,"two\nlines",${CALLS},,,,`, `c,"Weather in Paris?",${CALLS},,,x,`),
      {
        idFactory: () => 'generated',
        partial: true,
      },
    );
    expect(result.cases.map((c) => c.id)).toEqual(['generated', 'b']);
    expect(result.notes).toEqual([{ row: 2, id: 'generated', field: 'id', message: 'no id in the source; generated "generated"' }]);
    expect(result.errors).toEqual([{ row: 5, id: 'c', field: 'complexity_level', reason: 'expected an integer from 1 to 5, got "x"' }]);
  });

  it.each<[string, string, ImportRowError[]]>([
    [
      'an unknown column',
      'id,nl_query,expected_tool_calls,priority',
      [
        {
          row: 1,
          field: 'priority',
          reason: expect.stringMatching(/^unknown column "priority" \(known columns: id, nl_query, .*\)$/) as unknown as string,
        },
      ],
    ],
    ['a repeated column', 'id,nl_query,expected_tool_calls,id', [{ row: 1, field: 'id', reason: 'column appears twice in the header' }]],
    [
      'missing required columns',
      'id,category',
      [
        { row: 1, field: 'nl_query', reason: 'required column is missing from the header' },
        { row: 1, field: 'expected_tool_calls', reason: 'required column is missing from the header' },
      ],
    ],
  ])('rejects a header with %s and reads no row', async (_label, header, errors) => {
    expect(await importCsv(`${header}\na,b,c,d\n`, { partial: true })).toEqual({
      cases: [],
      catalogs: [],
      errors,
      notes: [],
      total_rows: 0,
    });
  });

  it('rejects an empty input', async () => {
    expect((await importCsv('')).errors).toEqual([
      { row: 0, field: '', reason: 'empty input: a header row naming the columns is required' },
    ]);
  });

  it.each<[string, string, Omit<ImportRowError, 'row'>[]]>([
    [
      'a JSON column that is not JSON',
      `a,Weather in Paris?,[{tool_name: x}],,,,`,
      [{ id: 'a', field: 'expected_tool_calls', reason: expect.stringMatching(/^not valid JSON: /) as unknown as string }],
    ],
    [
      'too many cells',
      `a,Weather in Paris?,${CALLS},,,,,extra`,
      [{ id: 'a', field: '', reason: 'has 8 cells but the header has 7 columns' }],
    ],
    ['too few cells', `a,Weather in Paris?,${CALLS}`, [{ id: 'a', field: '', reason: 'has 3 cells but the header has 7 columns' }]],
    [
      'a missing expected_tool_calls cell',
      `a,Weather in Paris?,,,,,`,
      [
        {
          id: 'a',
          field: 'expected_tool_calls',
          reason:
            'required for a single-question case ([] means: make no call); a conversation case puts them in turns[i].expected_tool_calls',
        },
      ],
    ],
    [
      'a complexity out of range',
      `a,Weather in Paris?,${CALLS},,,7,`,
      [{ id: 'a', field: 'complexity_level', reason: 'Too big: expected number to be <=5' }],
    ],
    [
      'an empty tag',
      `a,Weather in Paris?,${CALLS},,"[""""]",,`,
      [{ id: 'a', field: 'tags.0', reason: 'Too small: expected string to have >=1 characters' }],
    ],
    [
      'a call without a tool name',
      `a,Weather in Paris?,"[{""tool"":""x""}]",,,,`,
      [
        { id: 'a', field: 'expected_tool_calls.0.tool_name', reason: 'required (expected string)' },
        { id: 'a', field: 'expected_tool_calls.0.tool', reason: 'unknown field' },
      ],
    ],
  ])('reports %s with row, field and reason', async (_label, row, errors) => {
    const result = await importCsv(csv(`ok,Weather in Paris?,${CALLS},,,,`, row));
    expect(result.errors).toEqual(errors.map((e) => ({ row: 3, ...e })));
    expect(result.cases).toEqual([]);
    expect(result.total_rows).toBe(2);
  });

  it('skips a malformed record, naming its line and the parser message, and reads on', async () => {
    const result = await importCsv(
      csv(`a,Weather in Paris?,${CALLS},,,,`, `b,"bad"quote,${CALLS},,,,`, `c,Weather in Paris?,${CALLS},,,,`),
      { partial: true },
    );
    expect(result.cases).toEqual([weatherCase('a'), weatherCase('c')]);
    expect(result.errors).toEqual([{ row: 3, field: '', reason: expect.stringMatching(/^not valid CSV: Invalid Closing Quote/) }]);
    expect(result.total_rows).toBe(3);
  });

  it('reports a quote never closed at the line where its record starts', async () => {
    const result = await importCsv(csv(`a,Weather in Paris?,${CALLS},,,,`, `b,"unclosed,x,,,,`, `c,y,[],,,,`), { partial: true });
    expect(result.cases).toEqual([weatherCase('a')]);
    expect(result.errors).toEqual([{ row: 3, field: '', reason: expect.stringMatching(/^not valid CSV: Quote Not Closed/) }]);
    expect(result.total_rows).toBe(2);
  });

  it('reads a stream of byte chunks split anywhere, with a BOM', async () => {
    const bytes = new TextEncoder().encode(`\uFEFF${csv(`é,Weather in Paris?,${CALLS},,,2,météo`)}`);
    async function* chunks() {
      for (let i = 0; i < bytes.length; i += 5) yield bytes.slice(i, i + 5);
    }
    expect((await importCsv(chunks())).cases).toEqual([weatherCase('é', { complexity: 2, category: 'météo' })]);
  });
});
