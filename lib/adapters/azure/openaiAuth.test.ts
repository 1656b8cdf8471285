import type { AccessToken, GetTokenOptions, TokenCredential } from '@azure/identity';
import { afterEach, describe, expect, it } from 'vitest';
import { SemanticsConfigSchema, TargetSystemSchema } from '../../domain/index.js';
import { createJudge, JudgeConfigurationError } from '../../judges/index.js';
import {
  chatCompletion,
  startChatCompletionsServer,
  type ChatCompletionsServer,
} from '../../judges/testing/chatCompletionsServer.test-helpers.js';
import { TargetConfigurationError, TargetRegistry } from '../../targets/index.js';
import { EnvSecretResolver } from '../shared/envSecretResolver.js';
import { testCase } from '../../targets/testing/testCases.test-helpers.js';
import { azureOpenAITokenProvider, COGNITIVE_SERVICES_SCOPE } from './openaiAuth.js';

// A real Entra ID credential cannot be obtained here: the credential is a stand-in that hands out tokens and
// records the scopes asked for. Everything after it is real: @azure/identity's getBearerTokenProvider (token cache),
// the openai package's AzureOpenAI client, and a chat-completions server on 127.0.0.1 checking the headers.
class RecordingCredential implements TokenCredential {
  readonly scopes: string[][] = [];
  constructor(private readonly tokens: string[]) {}
  async getToken(scopes: string | string[], _options?: GetTokenOptions): Promise<AccessToken> {
    this.scopes.push(Array.isArray(scopes) ? scopes : [scopes]);
    const token = this.tokens.shift();
    if (!token) throw new Error('no token for you');
    return { token, expiresOnTimestamp: Date.now() + 3_600_000 };
  }
}

const GOOD = JSON.stringify({ reasoning: 'ok', score: 1, confidence: 1 });
const INPUT = { question: 'q?', expected_answer: 'It is 42.', expected_facts: [], actual_answer: 'It is 42.' };
const judgeConfig = SemanticsConfigSchema.parse({ enabled: true, judge: 'openai', scoring: 'holistic' });

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const azureEnv = (origin: string, extra: Record<string, string> = {}) => ({
  AZURE_OPENAI_ENDPOINT: `${origin}/`,
  AZURE_OPENAI_DEPLOYMENT: 'judge-dep',
  AZURE_OPENAI_API_VERSION: '2024-10-21',
  ...extra,
});

const azureTarget = (origin: string, apiKey?: boolean) =>
  TargetSystemSchema.parse({
    id: 'azure-model',
    name: 'Azure model',
    settings: {
      kind: 'openai',
      azure: true,
      model: 'target-dep',
      base_url: origin,
      api_version: '2024-10-21',
      ...(apiKey ? { api_key: { env: 'TARGET_KEY' } } : {}),
    },
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  });

describe('Azure OpenAI with Microsoft Entra ID tokens', () => {
  it('the judge sends Authorization: Bearer <token> from the provider (scope cognitiveservices), no api-key, tokens cached', async () => {
    server = await startChatCompletionsServer(() => chatCompletion(GOOD));
    const credential = new RecordingCredential(['entra-token-1']);
    const saved = process.env.AZURE_OPENAI_API_KEY;
    process.env.AZURE_OPENAI_API_KEY = 'from-process-env'; // must not be picked up behind our back
    try {
      const judge = createJudge(judgeConfig, azureEnv(server.origin), {
        cache: null,
        azureADTokenProvider: azureOpenAITokenProvider({ credential }),
      });
      await judge.judge(INPUT);
      await judge.judge(INPUT);
    } finally {
      if (saved === undefined) delete process.env.AZURE_OPENAI_API_KEY;
      else process.env.AZURE_OPENAI_API_KEY = saved;
    }
    expect(server.requests.map((r) => [r.url, r.headers.authorization, r.headers['api-key']])).toEqual([
      ['/openai/deployments/judge-dep/chat/completions?api-version=2024-10-21', 'Bearer entra-token-1', undefined],
      ['/openai/deployments/judge-dep/chat/completions?api-version=2024-10-21', 'Bearer entra-token-1', undefined],
    ]);
    expect(credential.scopes).toEqual([[COGNITIVE_SERVICES_SCOPE]]);
  });

  it('the judge uses AZURE_OPENAI_API_KEY when it is set (the explicit fallback) and never asks for a token', async () => {
    server = await startChatCompletionsServer(() => chatCompletion(GOOD));
    const credential = new RecordingCredential(['unused']);
    const judge = createJudge(judgeConfig, azureEnv(server.origin, { AZURE_OPENAI_API_KEY: 'azure-key' }), {
      cache: null,
      azureADTokenProvider: azureOpenAITokenProvider({ credential }),
    });
    await judge.judge(INPUT);
    expect([server.requests[0]!.headers['api-key'], server.requests[0]!.headers.authorization, credential.scopes]).toEqual([
      'azure-key',
      undefined,
      [],
    ]);
  });

  it('the judge without key or token provider names AZURE_OPENAI_API_KEY and says why', () => {
    const error = (() => {
      try {
        createJudge(judgeConfig, azureEnv('https://x.openai.azure.com'));
      } catch (e) {
        return e as JudgeConfigurationError;
      }
    })();
    expect(error).toBeInstanceOf(JudgeConfigurationError);
    expect(error?.missing).toEqual(['AZURE_OPENAI_API_KEY']);
    expect(error?.message).toContain('no Microsoft Entra ID token provider');
  });

  it('a credential that fails is thrown (broken configuration, not a verdict) and no request is sent', async () => {
    server = await startChatCompletionsServer(() => chatCompletion(GOOD));
    const credential = new RecordingCredential([]);
    const judge = createJudge(judgeConfig, azureEnv(server.origin), {
      cache: null,
      maxRetries: 0,
      azureADTokenProvider: azureOpenAITokenProvider({ credential }),
    });
    await expect(judge.judge(INPUT)).rejects.toThrow(/no token for you/);
    expect(server.requests).toHaveLength(0);
  });

  it('an Azure openai target without api_key uses the host token provider (TargetRegistry -> OpenAITarget)', async () => {
    server = await startChatCompletionsServer(() => chatCompletion('the answer'));
    const credential = new RecordingCredential(['target-token']);
    const registry = new TargetRegistry({
      secrets: new EnvSecretResolver({}),
      azureADTokenProvider: azureOpenAITokenProvider({ credential }),
    });
    const invocation = await registry.invokerFor(azureTarget(server.origin)).invoke(testCase('tc-1'));
    expect(invocation).toMatchObject({ ok: true, output: { role: 'assistant', content: 'the answer' } });
    expect(server.requests.map((r) => [r.url, r.headers.authorization, r.headers['api-key']])).toEqual([
      ['/openai/deployments/target-dep/chat/completions?api-version=2024-10-21', 'Bearer target-token', undefined],
    ]);
  });

  it('an Azure openai target with api_key keeps using the key; without key or provider it is a configuration error naming settings.api_key', async () => {
    server = await startChatCompletionsServer(() => chatCompletion('ok'));
    const credential = new RecordingCredential(['unused']);
    const withProvider = new TargetRegistry({
      secrets: new EnvSecretResolver({ TARGET_KEY: 'k-1' }),
      azureADTokenProvider: azureOpenAITokenProvider({ credential }),
    });
    await withProvider.invokerFor(azureTarget(server.origin, true)).invoke(testCase('tc-2'));
    expect([server.requests[0]!.headers['api-key'], server.requests[0]!.headers.authorization, credential.scopes]).toEqual([
      'k-1',
      undefined,
      [],
    ]);
    const without = new TargetRegistry({ secrets: new EnvSecretResolver({}) });
    await expect(without.check(azureTarget(server.origin))).rejects.toMatchObject({
      name: TargetConfigurationError.name,
      setting: 'settings.api_key',
    });
  });
});
