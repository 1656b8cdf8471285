import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../app/packageRoot.js';
import { sampleTestCase } from '../../../ports/contracts/fixtures.js';
import { FILTER_CASES } from '../../../ports/contracts/testCaseStore.contract.js';
import { startTestApi, type TestApi } from '../apiTestPlatform.test-helpers.js';
import { coalesce } from './export.js';
import { rawCall, storedCases } from './testCaseApi.test-helpers.js';

let api: TestApi;
let before: unknown[];
const FIXTURES = join(packageRoot(), 'lib', 'goldset', 'importers', '__fixtures__');
/** Cases that exercise every column: matchers, alternatives, raw data, facts, catalogs, coercion, empty strings. */
const RICH = [
  {
    ...sampleTestCase('rich-1', { expected_nl_response: '', tags: ['a|b', 'c;d'], category: 'odd, "quoted"' }),
    expected_facts: ['x', 'y|z'],
    call_order: 'strict' as const,
  },
  {
    ...sampleTestCase('rich-2 "quoted", ümlaut'),
    expected_raw_data: [{ temp: { $range: { min: 10, max: 20 } } }],
    execution: { ignore_paths: ['/updated_at'] },
    coercion: 'strict' as const,
  },
];

async function clear(): Promise<void> {
  const store = api.platform.services.stores.testCases;
  for await (const id of store.listTestCaseIds()) await store.deleteTestCase(id);
}

beforeAll(async () => {
  api = await startTestApi();
  const questions = await readFile(join(FIXTURES, 'bfcl_questions.jsonl'), 'utf8');
  const answers = await readFile(join(FIXTURES, 'bfcl_possible_answers.jsonl'), 'utf8');
  expect(
    (
      await rawCall(api, 'POST', 'v1/test-cases/import?format=bfcl', {
        body: JSON.stringify({ questions, answers }),
        contentType: 'application/json',
      })
    ).status,
  ).toBe(200);
  const native = [...FILTER_CASES, ...RICH].map((c) => JSON.stringify(c)).join('\n');
  expect((await rawCall(api, 'POST', 'v1/test-cases/import', { body: native, contentType: 'application/x-ndjson' })).status).toBe(200);
  before = await storedCases(api);
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

describe('GET /v1/test-cases/export', () => {
  it.each([
    ['jsonl', 'application/x-ndjson', 'application/x-ndjson; charset=utf-8'],
    ['csv', 'text/csv', 'text/csv; charset=utf-8'],
  ])('exports %s streamed (chunked), and importing the export gives the same cases back', async (format, importType, type) => {
    // the app asks Azure to stream (functions/setup.ts); the embedded host serving it still streams and answers
    expect(api.platform.host.setup.enableHttpStream).toBe(true);
    const r = await rawCall(api, 'GET', `v1/test-cases/export?format=${format}`, { key: api.keys.reader });
    expect([r.status, r.headers.get('content-type'), r.headers.get('transfer-encoding'), r.headers.get('content-length')]).toEqual([
      200,
      type,
      'chunked',
      null,
    ]);
    expect([r.headers.get('content-disposition'), r.headers.get('x-total-count')]).toEqual([
      `attachment; filename="test-cases.${format}"`,
      String(before.length),
    ]);
    await clear();
    const back = await rawCall(api, 'POST', 'v1/test-cases/import', { body: r.text, contentType: importType });
    expect([back.status, back.json.imported, back.json.error_count]).toEqual([200, before.length, 0]);
    expect(await storedCases(api)).toEqual(before);
  });

  it('exports JSON Lines: one stored case per line, in store order', async () => {
    const r = await rawCall(api, 'GET', 'v1/test-cases/export');
    expect(r.text.endsWith('\n')).toBe(true);
    expect(
      r.text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(before);
  });

  it.each<[string, string, string[]]>([
    ['category', 'category=travel', ['c2', 'c3']],
    ['tags all + full text', 'tags=travel,refunds&tags_mode=all&q=hotel', ['c3']],
    ['complexity', 'complexity_min=4&complexity_max=4&api_version=v2', ['c3']],
    ['nothing matches', 'category=none', []],
  ])('applies the list filters: %s', async (_label, query, ids) => {
    const r = await rawCall(api, 'GET', `v1/test-cases/export?${query}`);
    expect(r.status).toBe(200);
    expect(
      r.text
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { id: string }).id),
    ).toEqual(ids);
    expect(r.headers.get('x-total-count')).toBe(String(ids.length));
    const csv = await rawCall(api, 'GET', `v1/test-cases/export?format=csv&${query}`);
    expect(csv.text.split('\n').filter(Boolean)).toHaveLength(1 + ids.length);
  });

  it('exports more cases than one read batch and one chunk, complete and in order', async () => {
    const many = Array.from({ length: 2_500 }, (_, i) => sampleTestCase(`many-${i}`, { category: 'many' }));
    await api.platform.services.stores.testCases.upsertTestCases(many);
    const r = await rawCall(api, 'GET', 'v1/test-cases/export?category=many');
    expect(
      r.text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(many);
    for (const { id } of many) await api.platform.services.stores.testCases.deleteTestCase(id);
  });

  it.each<[string, string, number]>([
    ['an unknown format', 'format=xml', 400],
    ['an invalid filter', 'complexity_min=0', 400],
  ])('%s is a problem before anything is streamed', async (_label, query, status) => {
    const r = await rawCall(api, 'GET', `v1/test-cases/export?${query}`);
    expect([r.status, r.headers.get('content-type')]).toEqual([status, 'application/problem+json']);
  });

  it('any role may export; no key is 401', async () => {
    expect((await rawCall(api, 'GET', 'v1/test-cases/export', { key: api.keys.runner })).status).toBe(200);
    expect((await rawCall(api, 'GET', 'v1/test-cases/export', { key: null })).status).toBe(401);
  });
});

describe('coalesce', () => {
  it('joins pieces into chunks of at least the size, keeping everything in order', async () => {
    async function* pieces() {
      for (const p of ['ab', 'cd', 'e', 'fgh', 'i']) yield p;
    }
    const chunks: string[] = [];
    for await (const chunk of coalesce(pieces(), 3)) chunks.push(chunk);
    expect(chunks).toEqual(['abcd', 'efgh', 'i']);
  });
});
