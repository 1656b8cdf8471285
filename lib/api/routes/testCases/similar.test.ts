import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textSimilarity } from '../../../adapters/shared/testCaseSimilarity.js';
import { SIMILAR_CASES } from '../../../ports/contracts/testCaseStore.contract.js';
import { startTestApi, type TestApi } from '../apiTestPlatform.test-helpers.js';

let api: TestApi;
const QUESTION = 'What is the weather in Paris tomorrow?';
const item = (id: string) => {
  const question = SIMILAR_CASES.find((c) => c.id === id)!.nl_query;
  return { id, question, score: textSimilarity(QUESTION, question) };
};

beforeAll(async () => {
  api = await startTestApi();
  await api.platform.services.stores.testCases.upsertTestCases(SIMILAR_CASES);
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

describe('POST /v1/test-cases/similar', () => {
  it('finds near-duplicates of a text, best first, with min_score 0.5 and limit 10 by default', async () => {
    const r = await api.call('POST', 'v1/test-cases/similar', { body: { text: QUESTION } });
    expect([r.status, r.json]).toEqual([200, { items: [{ ...item('d1'), score: 1 }, { ...item('d6'), score: 1 }, item('d2')] }]);
  });

  it('limit and min_score', async () => {
    const r = await api.call('POST', 'v1/test-cases/similar', { body: { text: QUESTION, limit: 4, min_score: 0 } });
    expect(r.json.items).toEqual([item('d1'), item('d6'), item('d2'), item('d3')]);
  });

  it("searches with a stored case's question and leaves that case out", async () => {
    const r = await api.call('POST', 'v1/test-cases/similar', { key: api.keys.runner, body: { id: 'd1', limit: 2 } });
    expect([r.status, r.json]).toEqual([200, { items: [{ ...item('d6'), score: 1 }, item('d2')] }]);
  });

  it.each<[string, unknown, number, string[]]>([
    ['neither text nor id', {}, 400, ['body.text']],
    ['both text and id', { text: 'a', id: 'd1' }, 400, ['body.text']],
    ['a limit over 100', { text: 'a', limit: 101 }, 400, ['body.limit']],
    ['a min_score over 1', { text: 'a', min_score: 1.5 }, 400, ['body.min_score']],
    ['an unknown field', { text: 'a', top: 3 }, 400, ['body']],
  ])('400 for %s', async (_label, body, status, paths) => {
    const r = await api.call('POST', 'v1/test-cases/similar', { body });
    expect([r.status, r.json.errors.map((e: { path: string }) => e.path)]).toEqual([status, paths]);
  });

  it('404 for an unknown case id; 401 without a key', async () => {
    expect((await api.call('POST', 'v1/test-cases/similar', { body: { id: 'nope' } })).status).toBe(404);
    expect((await api.call('POST', 'v1/test-cases/similar', { key: null, body: { text: 'x' } })).status).toBe(401);
  });
});
