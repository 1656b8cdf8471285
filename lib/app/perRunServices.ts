import { referenceEmbedderFrom } from './referenceEmbedder.js';
import { isAbsolute, resolve } from 'node:path';
import { createApiProvider } from './createApiProvider.js';
import { createJudge, createJudgeClient, DEFAULT_OPENAI_JUDGE_MODEL, PairwiseJudge } from '../judges/index.js';
import { McpServerUnavailableError, McpToolSource, type TargetRegistry } from '../targets/index.js';
import { type ApiProvider, ExecutionConfigurationError, type Services } from '../ports/index.js';
import type { TargetSystem } from '../domain/index.js';

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
  /** the outbound-policy fetch (lib/outbound) for stage-3 live API calls (`execution.base_url` comes from a run's config) */
  fetch?: typeof globalThis.fetch;
}): Pick<Services, 'invokerFor' | 'checkTarget' | 'apiProviderFor' | 'judgeFor' | 'pairwiseJudge' | 'circuitOf' | 'referenceEmbedder'> {
  const { targets, baseDir, env, azureADTokenProvider, fetch } = options;
  let embedder: { value: ReturnType<typeof referenceEmbedderFrom> } | undefined;
  return {
    referenceEmbedder: () => (embedder ??= { value: referenceEmbedderFrom(env, azureADTokenProvider) }).value,
    circuitOf: (targetId) => targets.snapshot().find((h) => h.target_id === targetId)?.circuit,
    invokerFor: (target, catalog, apiProvider) =>
      targets.invokerFor(target, { ...(catalog ? { catalog } : {}), ...(apiProvider ? { apiProvider } : {}) }),
    checkTarget: (target, catalog, apiProvider) =>
      targets.check(target, { ...(catalog ? { catalog } : {}), ...(apiProvider ? { apiProvider } : {}) }),
    apiProviderFor: async (run, catalog, target) => {
      const exec = run.config.execution;
      if (exec.provider === 'mcp') return mcpStageProvider(targets, target);
      const cassette = exec.cassette_path && !isAbsolute(exec.cassette_path) ? resolve(baseDir, exec.cassette_path) : exec.cassette_path;
      return createApiProvider(
        { ...exec, ...(cassette ? { cassette_path: cassette } : {}) },
        { ...(catalog ? { catalog } : {}), ...(fetch ? { fetch } : {}) },
      );
    },
    judgeFor: (run) => createJudge(run.config.semantics, env, { azureADTokenProvider }),
    pairwiseJudge: (model) => {
      const { client, deployment } = createJudgeClient(env, { azureADTokenProvider });
      return new PairwiseJudge({ client, model: model?.trim() || deployment || DEFAULT_OPENAI_JUDGE_MODEL });
    },
  };
}

/**
 * Stage 3 on the target's MCP servers (`execution.provider: "mcp"`): the matched calls run on the servers that offer
 * the tools. A server that is down, crashed or hung makes the call `execution_failed` without a status: stage 3
 * reports it could not score (an error, not a 0) instead of blaming the call.
 */
async function mcpStageProvider(targets: TargetRegistry, target: TargetSystem | undefined): Promise<ApiProvider> {
  if (!target?.mcp_servers?.length) {
    throw new ExecutionConfigurationError(
      `execution.provider "mcp" needs a target with mcp_servers${target ? ` (target ${target.id} names none)` : ''}`,
    );
  }
  const source = new McpToolSource(target.id, target.mcp_servers, targets.mcp);
  return {
    kind: 'mcp',
    async execute(call, context) {
      const started = performance.now();
      try {
        return await (await source.snapshot()).executor.execute(call, context);
      } catch (error) {
        if (!(error instanceof McpServerUnavailableError)) throw error;
        return {
          ok: false,
          errorCode: 'execution_failed',
          message: error.message,
          durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        };
      }
    },
  };
}
