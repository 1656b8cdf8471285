import { afterEach, describe, expect, it } from 'vitest';
import { SemanticsConfigSchema, type SemanticsConfig } from '../domain/evaluationConfig.js';
import { createJudge, DEFAULT_OPENAI_JUDGE_MODEL } from './createJudge.js';
import { LocalReferenceJudge } from './localReference/localReferenceJudge.js';
import { JudgeConfigurationError } from './openai/openaiClient.js';
import { OpenAIJudge } from './openai/openaiJudge.js';
import { GEvalJudge } from './openai/gevalJudge.js';
import { chatCompletion, startChatCompletionsServer, type ChatCompletionsServer } from './testing/chatCompletionsServer.test-helpers.js';

const config = (over: Partial<SemanticsConfig> = {}): SemanticsConfig => SemanticsConfigSchema.parse({ enabled: true, ...over });
const INPUT = { question: 'q?', expected_answer: 'It is 42.', expected_facts: [], actual_answer: 'It is 42.' };
const GOOD = JSON.stringify({ reasoning: 'ok', score: 1, confidence: 1 });

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createJudge', () => {
  it('builds the local heuristic judge without any settings', () => {
    const judge = createJudge(config({ judge: 'local' }), {});
    expect(judge).toBeInstanceOf(LocalReferenceJudge);
    expect([judge.name, judge.method]).toEqual(['local-reference-heuristic', 'heuristic']);
  });

  it.each([
    ['no settings', {}, ['OPENAI_API_KEY'], 'needs OPENAI_API_KEY'],
    ['a blank key', { OPENAI_API_KEY: '  ' }, ['OPENAI_API_KEY'], 'needs OPENAI_API_KEY'],
    ['a bad base URL', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'localhost:8080' }, ['OPENAI_BASE_URL'], 'must be an http(s) URL'],
    [
      'a partial Azure setup',
      { AZURE_OPENAI_ENDPOINT: 'https://x.openai.azure.com', AZURE_OPENAI_API_KEY: 'k' },
      ['AZURE_OPENAI_DEPLOYMENT', 'AZURE_OPENAI_API_VERSION'],
      'AZURE_OPENAI_DEPLOYMENT, AZURE_OPENAI_API_VERSION are not set',
    ],
    [
      'an Azure endpoint without key',
      { AZURE_OPENAI_ENDPOINT: 'https://x.openai.azure.com', AZURE_OPENAI_DEPLOYMENT: 'd', AZURE_OPENAI_API_VERSION: 'v' },
      ['AZURE_OPENAI_API_KEY'],
      'AZURE_OPENAI_API_KEY is not set',
    ],
    [
      'a bad Azure endpoint',
      { AZURE_OPENAI_ENDPOINT: 'not a url', AZURE_OPENAI_DEPLOYMENT: 'd', AZURE_OPENAI_API_VERSION: 'v', AZURE_OPENAI_API_KEY: 'k' },
      ['AZURE_OPENAI_ENDPOINT'],
      'AZURE_OPENAI_ENDPOINT is not a URL',
    ],
  ])('throws a configuration error for the openai judge with %s', (_name, env, missing, fragment) => {
    const error = (() => {
      try {
        createJudge(config({ judge: 'openai' }), env);
      } catch (e) {
        return e;
      }
    })() as JudgeConfigurationError;
    expect(error).toBeInstanceOf(JudgeConfigurationError);
    expect(error.missing).toEqual(missing);
    expect(error.message).toContain(fragment);
  });

  it('builds an OpenAI judge from OPENAI_API_KEY and OPENAI_BASE_URL, with no client-level retries', async () => {
    server = await startChatCompletionsServer((_req, i) =>
      i === 0 ? { status: 500, body: { error: { message: 'boom' } } } : chatCompletion(GOOD),
    );
    const judge = createJudge(
      config({ judge: 'openai', scoring: 'holistic' }),
      { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL },
      { retryDelayInMs: 1, maxRetries: 0 },
    );
    expect(judge).toBeInstanceOf(OpenAIJudge);
    expect(judge.name).toBe(`openai:${DEFAULT_OPENAI_JUDGE_MODEL}`);
    await expect(judge.judge(INPUT)).rejects.toMatchObject({ reason: 'http_error', status: 500, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    const verdict = await judge.judge(INPUT);
    expect(verdict.score).toBe(1);
    expect(server.requests[1]!.headers.authorization).toBe('Bearer sk-test');
    expect((server.requests[1]!.body as { model: string }).model).toBe(DEFAULT_OPENAI_JUDGE_MODEL);
    // the default cache is on
    expect((await judge.judge(INPUT)).cached).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('builds an Azure OpenAI judge that calls the deployment URL with the api-key header', async () => {
    server = await startChatCompletionsServer(() => chatCompletion(GOOD));
    const judge = createJudge(
      config({ judge: 'openai', scoring: 'holistic' }),
      {
        AZURE_OPENAI_ENDPOINT: `${server.origin}/`,
        AZURE_OPENAI_DEPLOYMENT: 'judge-dep',
        AZURE_OPENAI_API_VERSION: '2024-10-21',
        AZURE_OPENAI_API_KEY: 'azure-key',
        OPENAI_API_KEY: 'ignored',
      },
      { cache: null },
    );
    expect(judge.name).toBe('openai:judge-dep');
    await judge.judge(INPUT);
    await judge.judge(INPUT);
    expect(server.requests.map((r) => [r.url, r.headers['api-key'], (r.body as { model: string }).model])).toEqual([
      ['/openai/deployments/judge-dep/chat/completions?api-version=2024-10-21', 'azure-key', 'judge-dep'],
      ['/openai/deployments/judge-dep/chat/completions?api-version=2024-10-21', 'azure-key', 'judge-dep'],
    ]);
  });

  it('uses the configured model name when given', () => {
    const judge = createJudge(config({ judge: 'openai', model: 'gpt-4o', scoring: 'holistic' }), { OPENAI_API_KEY: 'k' });
    expect(judge.name).toBe('openai:gpt-4o');
  });

  it("scores rubric criteria with G-Eval by default: the config's criteria, or the five defaults", () => {
    const judge = createJudge(config({ judge: 'openai', model: 'gpt-4o' }), { OPENAI_API_KEY: 'k' });
    expect(judge).toBeInstanceOf(GEvalJudge);
    expect(judge.name).toBe('geval:gpt-4o');
    expect((judge as GEvalJudge).criteria.map((c) => c.name)).toEqual([
      'correctness',
      'completeness',
      'faithfulness',
      'relevance',
      'clarity',
    ]);
    const one = createJudge(
      config({ judge: 'openai', criteria: [{ name: 'tone', description: 'polite?', rubric: ['a', 'b', 'c', 'd', 'e'], weight: 1 }] }),
      { OPENAI_API_KEY: 'k' },
    ) as GEvalJudge;
    expect(one.criteria).toEqual([{ name: 'tone', description: 'polite?', rubric: ['a', 'b', 'c', 'd', 'e'], weight: 1 }]);
    expect(one.rubricId).not.toBe((judge as GEvalJudge).rubricId);
  });
});
