import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scorecard } from '../domain/index.js';
import { startTestApi, type TestApi } from '../api/routes/apiTestPlatform.test-helpers.js';
import {
  chatCompletion,
  startChatCompletionsServer,
  type ChatCompletionsServer,
} from '../judges/testing/chatCompletionsServer.test-helpers.js';
import { sampleRun, sampleScorecard } from '../ports/contracts/fixtures.js';
import { runCliInProcess } from '../cli/commands/cliRunner.test-helpers.js';

let api: TestApi;
let judge: ChatCompletionsServer;

const card = (run: string, id: string, answer: string, category: string): Scorecard => ({
  ...sampleScorecard(run, id, { category }),
  generated_nl_response: answer,
});

beforeAll(async () => {
  // the local judge prefers the answer that says "42": it reads both answers from the prompt; for case k3 it always
  // names the first answer shown, so its two orders disagree (a tie)
  judge = await startChatCompletionsServer((req) => {
    const user = String((req.body as { messages: Array<{ content: string }> }).messages[1]!.content);
    const first = /<answer_1>\n([\s\S]*?)\n<\/answer_1>/.exec(user)![1]!;
    const second = /<answer_2>\n([\s\S]*?)\n<\/answer_2>/.exec(user)![1]!;
    const winner = first.includes('position')
      ? '1'
      : first.includes('42') && !second.includes('42')
        ? '1'
        : second.includes('42') && !first.includes('42')
          ? '2'
          : 'tie';
    return chatCompletion(
      JSON.stringify({ reasoning: `picked ${winner}`, score_1: winner === '1' ? 1 : 0.5, score_2: winner === '2' ? 1 : 0.5, winner }),
    );
  });
  api = await startTestApi({ OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: judge.baseURL });
  const { stores } = api.platform.services;
  await api.seedCases(['k1', 'k2', 'k3', 'k4', 'k5'].map((id) => ({ id })));
  await stores.runs.createRun(sampleRun('run-a', { status: 'completed' }));
  await stores.runs.createRun(sampleRun('run-b', { status: 'completed' }));
  await stores.scorecards.upsertScorecards([
    card('run-a', 'k1', 'It is 41.', 'orders'),
    card('run-a', 'k2', 'It is 42.', 'orders'),
    card('run-a', 'k3', 'first position wins', 'refunds'),
    card('run-a', 'k4', 'It is 41.', 'refunds'),
    card('run-a', 'k5', 'only in A', 'refunds'),
  ]);
  await stores.scorecards.upsertScorecards([
    card('run-b', 'k1', 'It is 42.', 'orders'),
    card('run-b', 'k2', 'It is 41.', 'orders'),
    card('run-b', 'k3', 'other position', 'refunds'),
    card('run-b', 'k4', 'It is 42.', 'refunds'),
  ]);
}, 60_000);
afterAll(async () => {
  await api.stop();
  await judge.close();
});

describe('pairwise judging of two runs', () => {
  it('judges shared cases in both orders, ties inconsistent pairs, counts per category, stores and reuses verdicts', async () => {
    const r = await api.call('POST', 'v1/compare/pairwise', { key: api.keys.runner, body: { run_ids: ['run-a', 'run-b'] } });
    expect(r.status).toBe(200);
    // B wins k1 and k4, loses k2, k3 is inconsistent (each order picks the first shown) -> tie
    expect(r.json).toMatchObject({ compared: 4, cached: 0, failed: 0, inconsistent: 1, overall: { wins: 2, ties: 1, losses: 1 } });
    expect(r.json.overall.win_rate.estimate).toBeCloseTo(2 / 3, 12);
    expect(r.json.by_category).toEqual([
      expect.objectContaining({ category: 'orders', wins: 1, ties: 0, losses: 1 }),
      expect.objectContaining({ category: 'refunds', wins: 1, ties: 1, losses: 0 }),
    ]);
    expect(judge.requests).toHaveLength(8);
    const again = await runCliInProcess(['compare', 'run-a', 'run-b', '--pairwise', '--url', api.platform.url, '--key', api.keys.runner]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('on 4 shared cases (4 from stored verdicts, 1 inconsistent');
    expect(again.stdout).toMatch(/overall\s+2\s+1\s+1\s+66\.7%/);
    expect(judge.requests).toHaveLength(8);
  });

  it('without judge settings the route answers 422 naming the missing setting', async () => {
    const bare = await startTestApi({ OPENAI_API_KEY: '', AZURE_OPENAI_ENDPOINT: '' });
    try {
      const r = await bare.call('POST', 'v1/compare/pairwise', { key: bare.keys.runner, body: { run_ids: ['x', 'y'] } });
      expect(r.status).toBe(422);
      expect(r.json.detail).toMatch(/OPENAI_API_KEY/);
    } finally {
      await bare.stop();
    }
  });
});
