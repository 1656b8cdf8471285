import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exportCsv, importBfcl, importCsv } from '../../../goldset/importers/index.js';
import { packageRoot } from '../../../app/packageRoot.js';
import type { TestCase } from '../../../domain/index.js';
import { handleRequest } from '../../handleRequest.js';
import { startTestApi, type TestApi } from '../apiTestPlatform.test-helpers.js';
import { importTestCasesRoute, lineCount, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from './import.js';
import { rawCall, storedCases } from './testCaseApi.test-helpers.js';

let api: TestApi;
const FIXTURES = join(packageRoot(), 'lib', 'goldset', 'importers', '__fixtures__');

const row = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  nl_query: `Weather in ${id}?`,
  expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: id } }],
  metadata: { tags: ['smoke'], complexity_level: 2 },
  ...extra,
});
/** A row as stored: defaults applied, source filled. */
const stored = (id: string, source = 'native'): TestCase => ({
  ...row(id),
  alternative_tool_calls: [],
  call_order: 'any',
  expected_facts: [],
  metadata: { tags: ['smoke'], complexity_level: 2, source },
});
/** A case as the import stores it: with the import time as created_at when the source gives none (the new-case trigger reads it). */
const importStamped = (tc: TestCase): TestCase => ({
  ...tc,
  metadata: { ...tc.metadata, created_at: tc.metadata.created_at ?? (expect.any(String) as unknown as string) },
});
const jsonl = (...rows: unknown[]): string => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';
const NDJSON = 'application/x-ndjson';

beforeAll(async () => {
  api = await startTestApi();
}, 60_000);

beforeEach(async () => {
  const store = api.platform.services.stores.testCases;
  for (const { id } of (await store.listTestCases({}, { limit: 1000 })).items) await store.deleteTestCase(id);
});

afterAll(async () => {
  await api?.stop();
});

describe('POST /v1/test-cases/import', () => {
  it('imports JSON Lines: counts, then a re-import updates instead of duplicating', async () => {
    const body = jsonl(row('paris'), '', row('lyon'), row('nice'));
    const r = await rawCall(api, 'POST', 'v1/test-cases/import', { body, contentType: NDJSON });
    expect([r.status, r.json]).toEqual([
      200,
      {
        format: 'jsonl',
        partial: false,
        total_rows: 3,
        imported: 3,
        created: 3,
        updated: 0,
        catalogs: [],
        error_count: 0,
        errors: [],
        note_count: 0,
        notes: [],
      },
    ]);
    expect(await storedCases(api)).toEqual([stored('paris'), stored('lyon'), stored('nice')].map(importStamped));
    const again = await rawCall(api, 'POST', 'v1/test-cases/import', { body, contentType: 'application/jsonl' });
    expect([again.json.created, again.json.updated]).toEqual([0, 3]);
    expect(await storedCases(api)).toHaveLength(3);
  });

  it('imports a JSON document ({"test_cases": [...]}); a row without id gets a UUID and a note; ?source= fills metadata.source', async () => {
    const { id: _id, ...noId } = row('x');
    const r = await rawCall(api, 'POST', 'v1/test-cases/import?source=gold-2026', {
      body: JSON.stringify({ test_cases: [row('a'), noId] }),
      contentType: 'application/json',
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ format: 'json', imported: 2, created: 2, note_count: 1 });
    const generated = r.json.notes[0].id as string;
    expect(r.json.notes).toEqual([{ row: 2, id: generated, field: 'id', message: `no id in the source; generated "${generated}"` }]);
    expect(await storedCases(api)).toEqual([stored('a', 'gold-2026'), { ...stored('x', 'gold-2026'), id: generated }].map(importStamped));
  });

  it('imports CSV exactly as the CSV importer reads it', async () => {
    let csv = '';
    for await (const chunk of exportCsv([stored('paris'), stored('lyon')])) csv += chunk;
    const r = await rawCall(api, 'POST', 'v1/test-cases/import', { body: csv, contentType: 'text/csv; charset=utf-8' });
    expect([r.status, r.json.format, r.json.imported]).toEqual([200, 'csv', 2]);
    expect(await storedCases(api)).toEqual((await importCsv(csv)).cases.map(importStamped));
  });

  it.each([
    [
      'a JSON envelope',
      async (questions: string, answers: string) => ({ body: JSON.stringify({ questions, answers }), contentType: 'application/json' }),
    ],
    [
      'multipart parts',
      async (questions: string, answers: string) => {
        const form = new FormData();
        form.append('questions', new Blob([questions]), 'BFCL_v3_simple.json');
        form.append('answers', new Blob([answers]), 'possible_answer.json');
        return { body: form };
      },
    ],
  ])('imports BFCL sent as %s, with its tool catalogs', async (_label, make) => {
    const questions = await readFile(join(FIXTURES, 'bfcl_questions.jsonl'), 'utf8');
    const answers = await readFile(join(FIXTURES, 'bfcl_possible_answers.jsonl'), 'utf8');
    const expected = await importBfcl({ questions, answers });
    const r = await rawCall(api, 'POST', 'v1/test-cases/import?format=bfcl', await make(questions, answers));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      format: 'bfcl',
      imported: expected.cases.length,
      created: expected.cases.length,
      error_count: 0,
      note_count: expected.notes.length,
    });
    expect(await storedCases(api)).toEqual(expected.cases.map(importStamped));
    expect([...r.json.catalogs].sort()).toEqual(expected.catalogs.map((c) => `${c.name}@1`).sort());
    for (const catalog of expected.catalogs)
      expect(await api.platform.services.stores.catalogs.get(`${catalog.name}@1`)).toMatchObject({
        name: catalog.name,
        tools: catalog.tools,
      });
  });

  it('all or nothing: one bad row is 422 naming its row and field, and nothing is stored', async () => {
    await rawCall(api, 'POST', 'v1/test-cases/import', { body: jsonl(row('kept')), contentType: NDJSON });
    const body = jsonl(row('a'), row('b', { metadata: { complexity_level: 9 } }), row('c'), '{"id": "d", oops');
    const r = await rawCall(api, 'POST', 'v1/test-cases/import', { body, contentType: NDJSON });
    expect([r.status, r.headers.get('content-type')]).toEqual([422, 'application/problem+json']);
    expect(r.json).toEqual({
      type: 'about:blank',
      title: 'Unprocessable Content',
      status: 422,
      detail: '2 of 4 rows are invalid; nothing was imported (fix them, or send ?partial=true to import the 2 valid rows)',
      instance: '/api/v1/test-cases/import',
      errors: [
        {
          path: 'body.rows.2.metadata.complexity_level',
          message: 'Too big: expected number to be <=5',
          row: 2,
          id: 'b',
          field: 'metadata.complexity_level',
          reason: 'Too big: expected number to be <=5',
        },
        {
          path: 'body.rows.4',
          message: expect.stringContaining('not valid JSON'),
          row: 4,
          field: '',
          reason: expect.stringContaining('not valid JSON'),
        },
      ],
      error_count: 2,
      total_rows: 4,
    });
    expect((await storedCases(api)).map((c) => (c as { id: string }).id)).toEqual(['kept']);
  });

  it('?partial=true stores the good rows and lists the bad ones by row and field', async () => {
    const body = jsonl(row('a'), row('b', { expected_tool_calls: [{ arguments: {} }] }), row('c'));
    const r = await rawCall(api, 'POST', 'v1/test-cases/import?partial=true', { body, contentType: NDJSON });
    expect([r.status, r.json]).toEqual([
      200,
      {
        format: 'jsonl',
        partial: true,
        total_rows: 3,
        imported: 2,
        created: 2,
        updated: 0,
        catalogs: [],
        error_count: 1,
        errors: [{ row: 2, id: 'b', field: 'expected_tool_calls.0.tool_name', reason: 'required (expected string)' }],
        note_count: 0,
        notes: [],
      },
    ]);
    expect(await storedCases(api)).toEqual([stored('a'), stored('c')].map(importStamped));
  });

  it.each<[string, string, string, string]>([
    [
      'every row bad, even with partial',
      '?partial=true',
      jsonl(row('a', { nl_query: '' })),
      'none of the 1 rows is valid; nothing was imported',
    ],
    ['a JSON body that is not JSON', '', '[{"id": ', 'the input could not be read'],
    ['a CSV without the required columns', '', 'id,question\nq1,hi\n', 'the input could not be read'],
  ])('422 for %s', async (_label, query, body, detail) => {
    const contentType = body.startsWith('[') ? 'application/json' : body.startsWith('id,') ? 'text/csv' : NDJSON;
    const r = await rawCall(api, 'POST', `v1/test-cases/import${query}`, { body, contentType });
    expect([r.status, r.json.detail]).toEqual([422, expect.stringContaining(detail)]);
    expect(await storedCases(api)).toEqual([]);
  });

  it.each<[string, string, string | undefined, number, string]>([
    ['text/plain', '', 'text/plain', 415, 'got text/plain'],
    ['no content type', '', undefined, 415, 'no Content-Type was given'],
    ['CSV declared but JSON sent as such', '?format=csv', 'application/json', 415, 'format "csv" cannot be sent as application/json'],
    ['an unknown format', '?format=xml', NDJSON, 400, 'query.format'],
    ['partial=yes', '?partial=yes', NDJSON, 400, 'query.partial'],
  ])('%s -> %s', async (_label, query, contentType, status, text) => {
    // bytes: fetch gives a string body a text/plain type of its own
    const r = await rawCall(api, 'POST', `v1/test-cases/import${query}`, {
      body: new TextEncoder().encode(jsonl(row('a'))),
      ...(contentType ? { contentType } : {}),
    });
    expect(r.status).toBe(status);
    expect([r.headers.get('content-type'), `${r.json.detail} ${JSON.stringify(r.json.errors)}`]).toEqual([
      'application/problem+json',
      expect.stringContaining(text),
    ]);
    expect(await storedCases(api)).toEqual([]);
  });

  it('400 for a BFCL envelope without questions or with an unknown multipart part', async () => {
    const envelope = await rawCall(api, 'POST', 'v1/test-cases/import?format=bfcl', {
      body: JSON.stringify({ answers: '' }),
      contentType: 'application/json',
    });
    expect([envelope.status, envelope.json.errors.map((e: { path: string }) => e.path)]).toEqual([400, ['body.questions']]);
    const form = new FormData();
    form.append('question', 'x');
    const parts = await rawCall(api, 'POST', 'v1/test-cases/import', { body: form });
    expect([parts.status, parts.json.errors]).toEqual([400, [{ path: 'body.question', message: 'unknown part' }]]);
  });

  it('413 for a body over the limit (announced by Content-Length), before reading it', async () => {
    let read = false;
    const result = await handleRequest(
      importTestCasesRoute,
      {
        method: 'POST',
        url: `${api.platform.url}/api/v1/test-cases/import`,
        headers: new Headers({
          authorization: `Bearer ${api.keys['test-admin']}`,
          'content-type': NDJSON,
          'content-length': String(MAX_IMPORT_BYTES + 1),
        }),
        params: {},
        text: async () => {
          read = true;
          return '';
        },
      },
      api.platform.services,
      { start: async () => {}, cancel: async () => {}, startBenchmark: async () => {} },
    );
    expect([result.status, (result.body as { detail: string }).detail, read]).toEqual([
      413,
      `the body is larger than ${MAX_IMPORT_BYTES} bytes`,
      false,
    ]);
  });

  it('413 for more than MAX_IMPORT_ROWS lines, before parsing any', async () => {
    const r = await rawCall(api, 'POST', 'v1/test-cases/import', { body: '{}\n'.repeat(MAX_IMPORT_ROWS + 1), contentType: NDJSON });
    expect([r.status, r.json.detail]).toEqual([
      413,
      `the body has more than ${MAX_IMPORT_ROWS} lines; send at most ${MAX_IMPORT_ROWS} rows per request (evalp cases import splits a file into batches)`,
    ]);
    expect(await storedCases(api)).toEqual([]);
  });

  it.each([
    ['', 0],
    ['a', 1],
    ['a\n', 1],
    ['a\nb', 2],
    ['a\n\nb\n', 3],
  ])('lineCount(%j) = %i', (text, expected) => {
    expect(lineCount(text)).toBe(expected);
  });

  it('401 without a key, 403 for reader, runner and suite-admin keys; nothing stored', async () => {
    const body = jsonl(row('a'));
    expect((await rawCall(api, 'POST', 'v1/test-cases/import', { key: null, body, contentType: NDJSON })).status).toBe(401);
    for (const role of ['reader', 'runner', 'suite-admin'] as const) {
      expect((await rawCall(api, 'POST', 'v1/test-cases/import', { key: api.keys[role], body, contentType: NDJSON })).status).toBe(403);
    }
    expect(await storedCases(api)).toEqual([]);
  });
});
