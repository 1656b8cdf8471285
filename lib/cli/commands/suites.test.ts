import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../api/routes/apiTestPlatform.test-helpers.js';
import { runCommand } from './resourceCommands.test-helpers.js';
import { suitesCommand } from './suites.js';

let api: TestApi;
let dir: string;
let conn: string[];

beforeAll(async () => {
  api = await startTestApi();
  dir = await mkdtemp(join(tmpdir(), 'evalp-cli-suites-'));
  conn = ['--url', api.platform.url, '--key', api.keys['suite-admin']];
  await api.seedCases([{ id: 'a' }, { id: 'b' }, { id: 'c', category: 'refunds' }]);
}, 60_000);

afterAll(async () => {
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
});

const suites = (...args: string[]) => runCommand(suitesCommand, args);

describe('evalp suites', () => {
  it('create --file prints the id; --json prints the stored suite', async () => {
    await writeFile(join(dir, 'static.json'), JSON.stringify({ id: 'smoke', name: 'Smoke', kind: 'static', test_case_ids: ['a', 'b'] }));
    expect(await suites('create', '--file', join(dir, 'static.json'), ...conn)).toEqual({
      out: 'created test suite smoke\n',
      code: undefined,
    });
    await writeFile(
      join(dir, 'dynamic.json'),
      JSON.stringify({ id: 'refunds', name: 'Refunds', kind: 'dynamic', filter: { category: 'refunds' } }),
    );
    const json = await suites('create', '--file', join(dir, 'dynamic.json'), '--json', ...conn);
    expect(JSON.parse(json.out)).toMatchObject({ id: 'refunds', kind: 'dynamic', filter: { category: 'refunds' } });
  });

  it('list prints a table with member counts and the page position', async () => {
    const { out } = await suites('list', ...conn);
    const lines = out.trim().split('\n');
    expect(lines[1]).toMatch(/│ id +│ name +│ kind +│ cases +│ updated +│/);
    expect(out).toMatch(/│ refunds │ Refunds │ dynamic │ filter \{"category":"refunds"\} │/);
    expect(out).toMatch(/│ smoke +│ Smoke +│ static +│ 2 +│/);
    expect(lines.at(-1)).toBe('1-2 of 2');
    const page = await suites('list', '--limit', '1', ...conn);
    expect(page.out.trim().split('\n').at(-1)).toBe('1-1 of 2 (next: --offset 1)');
    expect(JSON.parse((await suites('list', '--json', ...conn)).out)).toMatchObject({
      total: 2,
      has_more: false,
      items: [{ id: 'refunds' }, { id: 'smoke' }],
    });
  });

  it('get prints the fields; --json the suite', async () => {
    expect((await suites('get', 'smoke', ...conn)).out).toMatch(/│ test_case_ids +│ \["a","b"\] +│/);
    expect(JSON.parse((await suites('get', 'smoke', '--json', ...conn)).out)).toMatchObject({ id: 'smoke', test_case_ids: ['a', 'b'] });
  });

  it('API errors become CLI errors with the status, detail and fields', async () => {
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ id: 'bad', name: 'Bad', kind: 'static', test_case_ids: ['a', 'zzz'] }));
    await expect(suites('create', '--file', join(dir, 'bad.json'), ...conn)).rejects.toThrow(
      /answered 422: .*\n  body\.test_case_ids\.1: test case "zzz" does not exist/,
    );
    await writeFile(join(dir, 'broken.json'), '{"id": ');
    await expect(suites('create', '--file', join(dir, 'broken.json'), ...conn)).rejects.toThrow(/broken\.json is not JSON/);
    await expect(suites('get', 'none', ...conn)).rejects.toThrow(/answered 404: test suite "none" does not exist/);
    await expect(suites('list', '--limit', 'ten', ...conn)).rejects.toThrow('--limit must be a whole number (got "ten")');
    await expect(suites('create', ...conn)).rejects.toThrow(/required option '--file <path>' not specified/);
  });

  it('delete is idempotent', async () => {
    expect((await suites('delete', 'smoke', ...conn)).out).toBe('deleted test suite smoke\n');
    expect((await suites('delete', 'smoke', '--json', ...conn)).out).toBe('{"deleted":"smoke"}\n');
    await expect(suites('get', 'smoke', ...conn)).rejects.toThrow(/404/);
  });
});
