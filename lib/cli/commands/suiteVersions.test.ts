import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../api/routes/apiTestPlatform.test-helpers.js';
import { runCommand } from './resourceCommands.test-helpers.js';
import { parseSampleOption, parseSuiteVersionOption } from './sampleOption.js';
import { suitesCommand } from './suites.js';

let api: TestApi;
let conn: string[];

beforeAll(async () => {
  api = await startTestApi();
  conn = ['--url', api.platform.url, '--key', api.keys['suite-admin']];
  await api.seedCases([{ id: 'a' }, { id: 'b' }, { id: 'c', category: 'refunds' }]);
  const now = new Date().toISOString();
  await api.platform.services.stores.suites.upsert({
    id: 'smoke',
    name: 'Smoke',
    kind: 'static',
    test_case_ids: ['a', 'b'],
    created_at: now,
    updated_at: now,
  });
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

const suites = (...args: string[]) => runCommand(suitesCommand, args);

describe('evalp suites publish|versions|diff', () => {
  it('publishes, lists and diffs versions', async () => {
    expect((await suites('versions', 'smoke', ...conn)).out).toBe('no published versions of smoke (runs use the live suite)\n');
    expect((await suites('publish', 'smoke', '--note', 'first', ...conn)).out).toMatch(
      /^published smoke version 1: 2 cases, content [0-9a-f]{12}, by suite-admin-key\n$/,
    );
    // change the suite (c added, b removed) and a case body (a), then publish again
    const { stores } = api.platform.services;
    const suite = (await stores.suites.get('smoke'))!;
    const { _etag, ...body } = suite;
    await stores.suites.replace({ ...body, test_case_ids: ['a', 'c'] });
    const a = (await stores.testCases.getTestCase('a'))!;
    const { _etag: _e, ...caseA } = a;
    await stores.testCases.replaceTestCase({ ...caseA, nl_query: 'a changed question' });
    const v2 = JSON.parse((await suites('publish', 'smoke', '--json', ...conn)).out);
    expect(v2).toMatchObject({ suite_id: 'smoke', version: 2, case_count: 2, note: '' });
    const list = (await suites('versions', 'smoke', ...conn)).out;
    expect(list).toMatch(/│ version │ cases │ content +│ author +│ published +│ note +│/);
    expect(list.indexOf('│ 2 ')).toBeLessThan(list.indexOf('│ 1 '));
    const diff = (await suites('diff', 'smoke', '1', '2', ...conn)).out.split('\n');
    expect(diff[0]).toBe('smoke: version 1 -> 2: 1 added, 1 removed, 1 changed, 0 unchanged');
    expect(diff.slice(1, 3)).toEqual(['+ c', '- b']);
    expect(diff[3]).toMatch(/^~ a \([0-9a-f]{12} -> [0-9a-f]{12}\)$/);
    const json = JSON.parse((await suites('diff', 'smoke', '1', '2', '--json', ...conn)).out);
    expect(json).toMatchObject({ added: ['c'], removed: ['b'], unchanged: 0 });
  });

  it('publishing needs suite-admin; an unknown version is a 404 naming it', async () => {
    await expect(suites('publish', 'smoke', '--url', api.platform.url, '--key', api.keys.runner)).rejects.toThrow(/403|suite-admin/);
    await expect(suites('diff', 'smoke', '1', '9', ...conn)).rejects.toThrow(/smoke@9/);
  });
});

describe('submit --sample / --suite-version parsing', () => {
  it('reads sizes, rates, strata and allocation; refuses nonsense naming the flag', () => {
    expect(parseSampleOption('200', undefined)).toMatchObject({ size: 200, method: 'simple', seed: 42 });
    expect(parseSampleOption('0.1:category', '7')).toMatchObject({ rate: 0.1, method: 'stratified', stratify_by: 'category', seed: 7 });
    expect(parseSampleOption('300:tag:equal', undefined)).toMatchObject({ size: 300, stratify_by: 'tag', allocation: 'equal' });
    expect(() => parseSampleOption('lots', undefined)).toThrow(/--sample "lots"/);
    expect(() => parseSampleOption('0.1:colour', undefined)).toThrow(/stratify_by/);
    expect(parseSuiteVersionOption('3')).toBe(3);
    expect(parseSuiteVersionOption('live')).toBe('live');
    expect(() => parseSuiteVersionOption('newest')).toThrow(/--suite-version "newest"/);
  });
});
