import { isAbsolute, resolve } from 'node:path';
import { createApiProvider } from '../evaluation/execution/index.js';
import { createJudge, createJudgeClient, DEFAULT_OPENAI_JUDGE_MODEL, PairwiseJudge } from '../judges/index.js';
import type { TargetRegistry } from '../targets/index.js';
import type { Services } from './services.js';
import { referenceEmbedderFrom } from './referenceEmbedder.js';

/**
 * The per-run parts of Services that both backends build the same way: target invokers from the registry (one
 * circuit breaker and rate limiter per target), the stage-3 provider of a run (a relative cassette path is read
 * from `baseDir`) and its stage-4 judge (Azure OpenAI through an Entra token when no key is set).
 */
export function runServices(options: {
  targets: TargetRegistry;
  baseDir: string;
  env: Readonly<Record<string, string | undefined>>;
  azureADTokenProvider: () => Promise<string>;
}): Pick<Services, 'invokerFor' | 'apiProviderFor' | 'judgeFor' | 'referenceEmbedder' | 'pairwiseJudge'> {
  const { targets, baseDir, env, azureADTokenProvider } = options;
  let embedder: { value: ReturnType<typeof referenceEmbedderFrom> } | undefined;
  return {
    pairwiseJudge: (model) => {
      const { client, deployment } = createJudgeClient(env, { azureADTokenProvider });
      return new PairwiseJudge({ client, model: model?.trim() || deployment || DEFAULT_OPENAI_JUDGE_MODEL });
    },
    referenceEmbedder: () => (embedder ??= { value: referenceEmbedderFrom(env, azureADTokenProvider) }).value,
    invokerFor: (target, catalog) => targets.invokerFor(target, catalog ? { catalog } : {}),
    apiProviderFor: (run, catalog) => {
      const exec = run.config.execution;
      const cassette = exec.cassette_path && !isAbsolute(exec.cassette_path) ? resolve(baseDir, exec.cassette_path) : exec.cassette_path;
      return createApiProvider({ ...exec, ...(cassette ? { cassette_path: cassette } : {}) }, catalog ? { catalog } : {});
    },
    judgeFor: (run) => createJudge(run.config.semantics, env, { azureADTokenProvider }),
  };
}
