import type { SemanticsConfig } from '../domain/index.js';
import type { Judge } from '../ports/index.js';
import { LruJudgeCache, type JudgeCache } from './judgeCache.js';
import { LocalReferenceJudge } from './localReference/localReferenceJudge.js';
import { createJudgeClient, type SettingsSource } from './openai/openaiClient.js';
import { OpenAIJudge } from './openai/openaiJudge.js';
import { GEvalJudge } from './openai/gevalJudge.js';

/** The judge model when the config names none (OpenAI; Azure defaults to the deployment name). */
export const DEFAULT_OPENAI_JUDGE_MODEL = 'gpt-4.1-mini';

export interface CreateJudgeOptions {
  /** Verdict cache for LLM judges. Default: an in-memory LRU of 10,000 verdicts; null for none. */
  cache?: JudgeCache | null;
  maxRetries?: number;
  retryDelayInMs?: number;
  timeoutInMs?: number;
  /** Microsoft Entra ID tokens for Azure OpenAI (the host supplies them; AZURE_OPENAI_API_KEY, when set, wins) */
  azureADTokenProvider?: () => Promise<string>;
}

type JudgeKind = SemanticsConfig['judge'];
type JudgeFactory = (config: SemanticsConfig, env: SettingsSource, options: CreateJudgeOptions) => Judge;

const JUDGE_FACTORIES = {
  local: () => new LocalReferenceJudge(),
  openai: (config, env, options) => {
    const { client, deployment } = createJudgeClient(
      env,
      options.azureADTokenProvider ? { azureADTokenProvider: options.azureADTokenProvider } : {},
    );
    const model = config.model?.trim() || deployment || DEFAULT_OPENAI_JUDGE_MODEL;
    const common = {
      client,
      model,
      ...(options.cache === null ? {} : { cache: options.cache ?? new LruJudgeCache({ maxEntries: 10_000 }) }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      ...(options.retryDelayInMs === undefined ? {} : { retryDelayInMs: options.retryDelayInMs }),
      ...(options.timeoutInMs === undefined ? {} : { timeoutInMs: options.timeoutInMs }),
    };
    // rubric criteria scored one by one (G-Eval) unless the config asks for one holistic grade
    if (config.scoring === 'criteria') {
      return new GEvalJudge({ ...common, logprobs: config.logprobs, ...(config.criteria ? { criteria: config.criteria } : {}) });
    }
    return new OpenAIJudge(common);
  },
} satisfies Record<JudgeKind, JudgeFactory>;

/**
 * The judge a run's semantics config asks for. `env` is the settings source (pass `process.env` at the edge).
 * Throws JudgeConfigurationError naming the missing setting when the judge cannot be built.
 */
export function createJudge(config: SemanticsConfig, env: SettingsSource, options: CreateJudgeOptions = {}): Judge {
  const factory: JudgeFactory = JUDGE_FACTORIES[config.judge];
  return factory(config, env, options);
}
