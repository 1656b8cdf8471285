import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../api/apiKeys.js';
import { startTestApi, type TestApi } from '../../api/routes/apiTestPlatform.test-helpers.js';
import { runCliInProcess } from './cliRunner.test-helpers.js';

let api: TestApi;
const annotators: string[] = [];

beforeAll(async () => {
  api = await startTestApi();
  const { apiKeys, clock } = api.platform.services;
  for (const name of ['alice', 'bob', 'carol']) annotators.push((await createApiKey(apiKeys, { name, roles: ['annotator'] }, clock)).key);
  await api.seedCases([{ id: 'q1' }, { id: 'q2' }]);
  await api.call('POST', 'v1/test-suites', {
    key: api.keys['suite-admin'],
    body: { id: 's', name: 's', kind: 'static', test_case_ids: ['q1', 'q2'] },
  });
}, 60_000);
afterAll(() => api.stop());

const conn = (key: string) => ['--url', api.platform.url, '--key', key];

describe('evalp annotations', () => {
  it('create, three annotators take and label every item, progress, export with consensus, agreement', async () => {
    const created = await runCliInProcess([
      'annotations',
      'create',
      '--name',
      'quality',
      '--suite',
      's',
      '--schema',
      'scale',
      '--id',
      'cli-task',
      ...conn(api.keys['test-admin']),
    ]);
    expect(created.stdout).toContain('created annotation task cli-task: 2 items, 3 annotators per item');
    const scores = [
      [5, 4],
      [4, 4],
      [5, 2],
    ];
    for (const [who, key] of annotators.entries()) {
      for (let k = 0; k < 2; k++) {
        const next = await runCliInProcess(['annotations', 'next', 'cli-task', '--json', ...conn(key)]);
        const item = (JSON.parse(next.stdout) as { item_id: string }).item_id;
        const label = await runCliInProcess([
          'annotations',
          'label',
          'cli-task',
          item,
          String(scores[who]![item === 'q1' ? 0 : 1]),
          ...conn(key),
        ]);
        expect(label.code).toBe(0);
      }
      expect((await runCliInProcess(['annotations', 'next', 'cli-task', ...conn(key)])).stdout).toContain('nothing left');
    }
    expect((await runCliInProcess(['annotations', 'progress', 'cli-task', ...conn(api.keys.reader)])).stdout).toMatch(
      /^6\/6 labels, 2\/2 items complete/,
    );
    const exported = (await runCliInProcess(['annotations', 'export', 'cli-task', ...conn(api.keys.reader)])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { item_id: string; consensus: number });
    // medians: q1 (5, 4, 5) = 5; q2 (4, 4, 2) = 4
    expect(exported.map((r) => [r.item_id, r.consensus])).toEqual([
      ['q1', 5],
      ['q2', 4],
    ]);
    expect((await runCliInProcess(['annotations', 'agreement', 'cli-task', ...conn(api.keys.reader)])).stdout).toContain(
      "Krippendorff's alpha (ordinal)",
    );
    const bad = await runCliInProcess(['annotations', 'label', 'cli-task', 'q1', '9', ...conn(annotators[0]!)]);
    expect(bad.code).toBe(2);
  });
});
