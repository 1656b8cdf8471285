import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TestCaseSchema, idProblem, type ExpectedValue, type TestCase } from '../../domain/index.js';
import { importCsv } from './csvImporter.js';
import { exportCsv, exportJsonl } from './exporters.js';
import { importJsonl } from './jsonImporter.js';

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

const sample: TestCase = TestCaseSchema.parse({
  id: 'w-1',
  nl_query: 'Weather in "Paris", please',
  expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: { $one_of: ['Paris', 'paris'] } } }],
  expected_nl_response: '',
  expected_facts: ['sunny'],
  tool_catalog: { name: 'weather', version: '2' },
  coercion: 'bfcl',
  metadata: { complexity_level: 2, tags: ['smoke', 'eu'], category: 'weather', source: 'native' },
});

describe('exportJsonl', () => {
  it('writes one JSON line per case, each ending with a newline', async () => {
    expect(await collect(exportJsonl([sample, { ...sample, id: 'w-2' }]))).toEqual([
      `${JSON.stringify(sample)}\n`,
      `${JSON.stringify({ ...sample, id: 'w-2' })}\n`,
    ]);
  });
});

describe('exportCsv', () => {
  it('writes the header, then one record per case: absent cells empty, empty strings quoted', async () => {
    expect(await collect(exportCsv([sample]))).toEqual([
      'id,nl_query,expected_tool_calls,alternative_tool_calls,expected_raw_data,expected_nl_response,expected_facts,call_order,category,tags,complexity_level,api_version,author,tool_catalog,coercion,execution,source,created_at,updated_at,bfcl,turns\n',
      'w-1,"Weather in ""Paris"", please","[{""tool_name"":""get_weather"",""arguments"":{""city"":{""$one_of"":[""Paris"",""paris""]}}}]",,,"",sunny,any,weather,smoke|eu,2,,,weather@2,bfcl,,native,,,,\n',
    ]);
  });

  it('writes lists as JSON when a separator or padding would not survive', async () => {
    const tricky = TestCaseSchema.parse({ ...sample, expected_facts: ['a|b'], metadata: { tags: [' padded', 'x;y'] } });
    const [, row] = await collect(exportCsv([tricky]));
    expect(row).toContain('"[""a|b""]"');
    expect(row).toContain('"["" padded"",""x;y""]"');
  });
});

/** Text with the characters that break naive CSV/JSON handling. */
const text = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.constantFrom(',', '"', '""', '\n', '\r\n', '\r', '|', ';', '[', '{', ' ', '@', '\t', '\u2028'),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(''));
const nonEmpty = text.filter((s) => s !== '');
/** ids follow the one id rule (lib/domain IdSchema); `uniqueIds` prefixes up to 3 characters */
const validId = nonEmpty.filter((s) => idProblem(s) === undefined && [...s].length <= 120);
const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((n) => (Object.is(n, -0) ? 0 : n));
const key = text.map((s) => `k${s}`); // never starts with `$` (that would make an object a matcher)

const { value: expectedValue } = fc.letrec<{ value: ExpectedValue; leaf: ExpectedValue }>((tie) => ({
  leaf: fc.oneof(text, number, fc.boolean(), fc.constant(null)),
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }),
    fc.record({ $one_of: fc.array(tie('leaf'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ $optional: fc.constant(true), $one_of: fc.array(tie('leaf'), { minLength: 1, maxLength: 2 }) }),
    fc.record({ $value: tie('leaf'), $tolerance: fc.record({ relative: fc.double({ min: 0, max: 1, noNaN: true }) }) }),
    fc.record({ $any: fc.constant(true) }),
  ),
}));

const call = fc.record(
  { tool_name: nonEmpty, arguments: fc.dictionary(key, expectedValue, { maxKeys: 3 }), allow_extra_arguments: fc.boolean() },
  { requiredKeys: ['tool_name', 'arguments'] },
);
const isoDate = fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());

const testCase = fc
  .record(
    {
      id: validId,
      nl_query: nonEmpty,
      expected_tool_calls: fc.array(call, { maxLength: 3 }),
      alternative_tool_calls: fc.array(fc.array(call, { maxLength: 2 }), { maxLength: 2 }),
      call_order: fc.constantFrom('any', 'strict'),
      expected_nl_response: text,
      expected_facts: fc.array(text, { maxLength: 3 }),
      tool_catalog: fc.record({ name: nonEmpty, version: nonEmpty }),
      coercion: fc.oneof(
        fc.constantFrom('default', 'bfcl', 'strict'),
        fc.record({ numeric_string: fc.boolean(), string_normalization: fc.constantFrom('none', 'bfcl') }, { requiredKeys: [] }),
      ),
      execution: fc.record(
        {
          ignore_paths: fc.array(
            fc
              .array(fc.constantFrom('items', '*', '0', 'a~1b', 'x y'), { minLength: 1, maxLength: 3 })
              .map((parts) => '/' + parts.join('/')),
            { maxLength: 2 },
          ),
          relative_tolerance: fc.double({ min: 0, max: 1, noNaN: true }),
        },
        { requiredKeys: [] },
      ),
      metadata: fc.record(
        {
          api_version: text,
          complexity_level: fc.integer({ min: 1, max: 5 }),
          tags: fc.array(nonEmpty, { maxLength: 3 }),
          category: text,
          author: text,
          source: text,
          created_at: isoDate,
          updated_at: isoDate,
        },
        { requiredKeys: ['complexity_level', 'tags'] },
      ),
    },
    { requiredKeys: ['id', 'nl_query', 'expected_tool_calls'] },
  )
  .chain((tc) =>
    // expected_raw_data, when present, is aligned with expected_tool_calls
    fc
      .option(fc.array(expectedValue, { minLength: tc.expected_tool_calls.length, maxLength: tc.expected_tool_calls.length }), {
        nil: undefined,
      })
      .map((raw) => (raw === undefined ? tc : { ...tc, expected_raw_data: raw })),
  )
  .map((tc) => TestCaseSchema.parse(tc));

/** What an import returns for a case: the case, its source filled in when it had none. */
const withSource = (cases: TestCase[], source: string) =>
  cases.map((c) => ({ ...c, metadata: { ...c.metadata, source: c.metadata.source ?? source } }));
const uniqueIds = (cases: TestCase[]) => cases.map((c, i) => ({ ...c, id: `${i}:${c.id}` }));

describe('export then import gives equal cases', () => {
  it('JSONL', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(testCase, { maxLength: 5 }).map(uniqueIds), async (cases) => {
        const result = await importJsonl(exportJsonl(cases));
        expect(result.errors).toEqual([]);
        expect(result.cases).toEqual(withSource(cases, 'native'));
      }),
      { numRuns: 150 },
    );
  });

  it('CSV', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(testCase, { maxLength: 5 }).map(uniqueIds), async (cases) => {
        const result = await importCsv(exportCsv(cases));
        expect(result.errors).toEqual([]);
        expect(result.cases).toEqual(withSource(cases, 'csv'));
      }),
      { numRuns: 150 },
    );
  });
});
