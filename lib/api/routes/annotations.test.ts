import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../apiKeys.js';
import { startTestApi, type TestApi } from './apiTestPlatform.test-helpers.js';

let api: TestApi;
const annotators: string[] = [];

beforeAll(async () => {
  api = await startTestApi();
  const { apiKeys, clock } = api.platform.services;
  for (const name of ['ann-1', 'ann-2', 'ann-3', 'ann-4'])
    annotators.push((await createApiKey(apiKeys, { name, roles: ['annotator'] }, clock)).key);
  await api.seedCases(Array.from({ length: 8 }, (_, i) => ({ id: `case-${i}` })));
  const suite = await api.call('POST', 'v1/test-suites', {
    key: api.keys['suite-admin'],
    body: { id: 'ann-suite', name: 'annotated', kind: 'static', test_case_ids: Array.from({ length: 8 }, (_, i) => `case-${i}`) },
  });
  expect(suite.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await api.stop();
});

describe('annotation tasks over real HTTP', () => {
  it('creates a task (test-admin only), refuses a bad schema naming the field', async () => {
    const denied = await api.call('POST', 'v1/annotation-tasks', {
      key: api.keys.reader,
      body: { name: 'x', source: { kind: 'suite', suite_id: 'ann-suite' }, label_schema: { kind: 'pass_fail' } },
    });
    expect(denied.status).toBe(403);
    const bad = await api.call('POST', 'v1/annotation-tasks', {
      key: api.keys['test-admin'],
      body: { name: 'x', source: { kind: 'suite', suite_id: 'ann-suite' }, label_schema: { kind: 'categories', categories: ['only'] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/problem\+json/);
    expect(JSON.stringify(bad.json.errors)).toContain('label_schema');
    const missing = await api.call('POST', 'v1/annotation-tasks', {
      key: api.keys['test-admin'],
      body: { name: 'x', source: { kind: 'suite', suite_id: 'nope' }, label_schema: { kind: 'pass_fail' } },
    });
    expect(missing.status).toBe(404);
  });

  it('next never repeats or over-assigns under parallel requests from four annotators; submit, progress, export, agreement', async () => {
    const created = await api.call('POST', 'v1/annotation-tasks', {
      key: api.keys['test-admin'],
      body: { id: 'parallel', name: 'parallel', source: { kind: 'suite', suite_id: 'ann-suite' }, label_schema: { kind: 'pass_fail' } },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ item_count: 8, annotators_per_item: 3 });
    // 4 annotators x 8 parallel requests each = 32 requests for 24 slots
    const answers = await Promise.all(
      annotators.flatMap((key, who) =>
        Array.from({ length: 8 }, () => api.call('GET', 'v1/annotation-tasks/parallel/next', { key }).then((r) => ({ who, r }))),
      ),
    );
    const given = answers.filter((a) => a.r.status === 200).map((a) => ({ who: a.who, item: a.r.json.item_id as string }));
    expect(answers.every((a) => a.r.status === 200 || a.r.status === 204)).toBe(true);
    for (let who = 0; who < annotators.length; who++) {
      const mine = given.filter((g) => g.who === who).map((g) => g.item);
      expect(new Set(mine).size).toBe(mine.length);
    }
    const perItem = new Map<string, number>();
    for (const g of given) perItem.set(g.item, (perItem.get(g.item) ?? 0) + 1);
    expect([...perItem.values()].every((n) => n <= 3)).toBe(true);
    expect(given.length).toBe(24);
    // the item view carries the question
    expect(answers.find((a) => a.r.status === 200)!.r.json).toMatchObject({
      question: expect.stringMatching(/^question case-/),
      label_schema: { kind: 'pass_fail' },
    });

    // a reader cannot take items; a bad label is 400 naming body.label
    expect((await api.call('GET', 'v1/annotation-tasks/parallel/next', { key: api.keys.reader })).status).toBe(403);
    const first = given[0]!;
    const badLabel = await api.call('PUT', `v1/annotation-tasks/parallel/items/${first.item}/label`, {
      key: annotators[first.who]!,
      body: { label: 'maybe' },
    });
    expect(badLabel.status).toBe(400);
    expect(badLabel.json.errors[0].path).toBe('body.label');

    // everyone labels what they were given: pass, except annotator 3 says fail on even items
    const submitted = await Promise.all(
      given.map((g) =>
        api.call('PUT', `v1/annotation-tasks/parallel/items/${g.item}/label`, {
          key: annotators[g.who]!,
          body: { label: g.who === 3 && Number(g.item.split('-')[1]) % 2 === 0 ? 'fail' : 'pass' },
        }),
      ),
    );
    expect(submitted.every((s) => s.status === 201)).toBe(true);
    const again = await api.call('PUT', `v1/annotation-tasks/parallel/items/${first.item}/label`, {
      key: annotators[first.who]!,
      body: { label: 'pass' },
    });
    expect(again.status).toBe(409);

    const progress = await api.call('GET', 'v1/annotation-tasks/parallel/progress');
    expect(progress.json).toMatchObject({ items: 8, labels: 24, labels_wanted: 24, complete_items: 8 });
    // fully covered: nobody gets anything
    expect((await api.call('GET', 'v1/annotation-tasks/parallel/next', { key: annotators[0]! })).status).toBe(204);

    const exported = await api.call('GET', 'v1/annotation-tasks/parallel/export');
    expect(exported.json.items).toHaveLength(8);
    for (const row of exported.json.items as Array<{ labels: unknown[]; consensus: string }>) {
      expect(row.labels).toHaveLength(3);
      // at most one "fail" per item (annotator 3), so the majority is always pass
      expect(row.consensus).toBe('pass');
    }
    const agreement = await api.call('GET', 'v1/annotation-tasks/parallel/agreement');
    expect(agreement.json.agreement.fleiss.ratersPerItem).toBe(3);
    expect(agreement.json.agreement.alpha.level).toBe('nominal');
  });
});
