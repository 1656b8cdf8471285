import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/packageRoot.js';
import { importBfcl, importJsonl } from '../../goldset/importers/index.js';
import { sampleTestCase } from '../../ports/contracts/fixtures.js';
import { FILTER_CASES } from '../../ports/contracts/testCaseStore.contract.js';
import { startTestApi, type TestApi } from '../../api/routes/apiTestPlatform.test-helpers.js';
import { casesCommand, type CasesIO } from './cases.js';

let api: TestApi;
let dir: string;
const FIXTURES = join(packageRoot(), 'lib', 'goldset', 'importers', '__fixtures__');

async function evalpCases(args: string[], key = api.keys['test-admin']): Promise<{ out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CasesIO = { out: (t) => void (out += t), err: (t) => void (err += t), setExitCode: () => undefined, tty: false };
  await casesCommand(io).parseAsync([...args, '--url', api.platform.url, '--key', key], { from: 'user' });
  return { out, err };
}

const store = () => api.platform.services.stores.testCases;
async function storedIds(): Promise<string[]> {
  const ids: string[] = [];
  for await (const id of store().listTestCaseIds()) ids.push(id);
  return ids;
}
const jsonl = (cases: unknown[]): string => cases.map((c) => JSON.stringify(c)).join('\n') + '\n';

beforeAll(async () => {
  api = await startTestApi();
  dir = await mkdtemp(join(tmpdir(), 'evalp-cases-cli-'));
}, 60_000);

beforeEach(async () => {
  for (const id of await storedIds()) await store().deleteTestCase(id);
});

afterAll(async () => {
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('evalp cases import', () => {
  it('sends a small file as it is, in one request', async () => {
    const file = join(dir, 'small.jsonl');
    await writeFile(file, jsonl(FILTER_CASES));
    const r = await evalpCases(['import', file]);
    expect(r.out).toMatch(new RegExp(`^imported 6 cases from ${file} \\(created 6, updated 0\\) in [\\d.]+ s\\n$`));
    // the question checks warn (on stderr) after the validation line; the import goes ahead
    expect(r.err.split('\n')[0]).toBe(`checked 6 rows of ${file} in ${r.err.match(/in ([\d.]+) s/)![1]} s: 6 valid`);
    expect(r.err).toContain('warning: c1: few_facts');
    expect(await storedIds()).toEqual(FILTER_CASES.map((c) => c.id));
  });

  it('sends a big file in batches with progress, all cases stored as the importer reads them', async () => {
    const file = join(dir, 'big.jsonl');
    const cases = Array.from({ length: 2_345 }, (_, i) => sampleTestCase(`big-${i}`, { tags: ['big'], complexity: 1 + (i % 5) }));
    await writeFile(file, jsonl(cases));
    const r = await evalpCases(['import', file, '--batch-size', '500', '--json']);
    const summary = JSON.parse(r.out);
    expect(summary).toMatchObject({
      mode: 'batches',
      requests: 5,
      total_rows: 2_345,
      imported: 2_345,
      created: 2_345,
      updated: 0,
      error_count: 0,
    });
    expect(
      r.err
        .split('\n')
        .filter((l) => l.startsWith('imported '))
        .at(-1),
    ).toBe('imported 2345/2345 cases');
    expect(await storedIds()).toEqual(cases.map((c) => c.id));
    const expected = (await importJsonl(await readFile(file, 'utf8'))).cases;
    // as the importer reads them, plus the import time as created_at (the server stamps new cases that have none)
    const stamped = (i: number) => ({ ...expected[i]!, metadata: { ...expected[i]!.metadata, created_at: expect.any(String) } });
    expect(await store().getTestCases(['big-0', 'big-2344'])).toEqual([stamped(0), stamped(2_344)]);
  });

  it('one bad row in a big file: nothing is sent, the error names the row and field (all or nothing)', async () => {
    const file = join(dir, 'bad.jsonl');
    const cases: unknown[] = Array.from({ length: 1_200 }, (_, i) => sampleTestCase(`b-${i}`));
    cases[700] = { ...sampleTestCase('b-700'), metadata: { complexity_level: 0 } };
    await writeFile(file, jsonl(cases));
    await expect(evalpCases(['import', file, '--batch-size', '100'])).rejects.toThrow(
      `1 of 1200 rows of ${file} are invalid (1 error); nothing was imported (fix them, or pass --partial to import the valid rows):\n  row 701 (b-700): metadata.complexity_level: Too small: expected number to be >=1`,
    );
    expect(await storedIds()).toEqual([]);
  });

  it('--partial imports the valid rows and lists the skipped ones', async () => {
    const file = join(dir, 'partial.jsonl');
    await writeFile(file, jsonl([sampleTestCase('ok-1'), { ...sampleTestCase('bad-1'), nl_query: '' }, sampleTestCase('ok-2')]));
    const r = await evalpCases(['import', file, '--partial']);
    expect(r.out).toContain('imported 2 cases');
    expect(r.out).toContain('1 invalid row skipped (1 error)');
    expect(r.err).toContain('skipped row 2 (bad-1): nl_query: Too small: expected string to have >=1 characters');
    expect(await storedIds()).toEqual(['ok-1', 'ok-2']);
  });

  it('counts rows and errors apart and suggests the field probably meant (tool -> tool_name)', async () => {
    const file = join(dir, 'typo.jsonl');
    const typo = { ...sampleTestCase('typo-1'), expected_tool_calls: [{ tool: 'get_order', arguments: {} }] };
    await writeFile(file, jsonl([sampleTestCase('fine-1'), typo]));
    const error = await evalpCases(['import', file]).catch((err: Error) => err.message);
    // one bad row with two errors: the unknown field and the missing tool_name
    expect(error).toContain(`1 of 2 rows of ${file} are invalid (2 errors); nothing was imported`);
    expect(error).toContain('row 2 (typo-1): expected_tool_calls.0.tool: unknown field; did you mean "tool_name"?');
  });

  it('imports BFCL with --answers (its tool catalogs too)', async () => {
    const questions = join(FIXTURES, 'bfcl_questions.jsonl');
    const answers = join(FIXTURES, 'bfcl_possible_answers.jsonl');
    const r = await evalpCases(['import', questions, '--answers', answers, '--json']);
    const expected = await importBfcl({ questions: await readFile(questions, 'utf8'), answers: await readFile(answers, 'utf8') });
    expect(JSON.parse(r.out)).toMatchObject({
      format: 'bfcl',
      mode: 'single',
      imported: expected.cases.length,
      catalogs: expect.arrayContaining(expected.catalogs.map((c) => `${c.name}@1`)),
    });
    expect(await storedIds()).toEqual(expected.cases.map((c) => c.id));
  });

  it('errors: an unknown extension, a missing file, a key without the role', async () => {
    await expect(evalpCases(['import', join(dir, 'cases.txt')])).rejects.toThrow('pass --format json|jsonl|csv|bfcl');
    await expect(evalpCases(['import', join(dir, 'missing.jsonl')])).rejects.toThrow(`no such file: ${join(dir, 'missing.jsonl')}`);
    const file = join(dir, 'one.jsonl');
    await writeFile(file, jsonl([sampleTestCase('x')]));
    await expect(evalpCases(['import', file], api.keys.reader)).rejects.toThrow(/answered 403: this route needs the "test-admin" role/);
  });
});

describe('evalp cases export and list', () => {
  beforeEach(async () => {
    const file = join(dir, 'seed.jsonl');
    await writeFile(file, jsonl(FILTER_CASES));
    await evalpCases(['import', file]);
  });

  it.each(['jsonl', 'csv'])('exports %s to a file; importing it back gives the same cases', async (format) => {
    const before = (await store().listTestCases({}, { limit: 100 })).items.map(({ _etag, ...c }) => c);
    const out = join(dir, `export.${format}`);
    const r = await evalpCases(['export', '--format', format, '--out', out], api.keys.reader);
    expect(r.err).toMatch(new RegExp(`^exported 6 cases \\(\\d+ bytes\\) to ${out} in [\\d.]+ s\\n$`));
    for (const id of await storedIds()) await store().deleteTestCase(id);
    await evalpCases(['import', out]);
    expect((await store().listTestCases({}, { limit: 100 })).items.map(({ _etag, ...c }) => c)).toEqual(before);
  });

  it('exports to stdout with filters', async () => {
    const r = await evalpCases(['export', '--category', 'travel', '--tags', 'refunds'], api.keys.reader);
    expect(
      r.out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(['c3']);
  });

  it('lists as a table with filters and paging; --json prints the page', async () => {
    const r = await evalpCases(['list', '--tags', 'weather,billing', '--limit', '2'], api.keys.reader);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[1]).toMatch(/id\s+│ category\s+│ cx │ tags\s+│ api │ question/);
    expect(lines.filter((l) => /^│ c\d/.test(l)).map((l) => l.split('│')[1]!.trim())).toEqual(['c1', 'c4']);
    expect(lines.at(-1)).toBe('1-2 of 3 (next: --offset 2)');
    const json = await evalpCases(['list', '--q', 'zurich', '--json'], api.keys.reader);
    expect(JSON.parse(json.out)).toMatchObject({ total: 1, items: [{ id: 'c1' }] });
    await expect(evalpCases(['list', '--complexity-min', '9'], api.keys.reader)).rejects.toThrow(/400.*\n  query.complexity_min: /);
  });
});
