import type { OpenAI } from 'openai';
import type { TargetKind, TargetSettings, TargetSystem, ToolCatalog } from '../domain/index.js';
import type { ApiProvider, SecretResolver, TargetInvoker } from '../ports/index.js';
import { HttpTarget } from './http/httpTarget.js';
import { OpenAITarget } from './openai/openaiTarget.js';
import type { ReplayOutputsCache } from './replay/replayOutputsCache.js';
import { ReplayTarget } from './replay/replayTarget.js';

export interface TargetDeps {
  /** resolves secret references in the settings (api_key, headers) */
  secrets: SecretResolver;
  /** directory a relative replay `outputs_path` is resolved against (default: the working directory) */
  baseDir?: string;
  /** the target's tool catalog (openai: sent as tools) */
  catalog?: ToolCatalog;
  /** stage-3 provider for the openai agentic loop */
  apiProvider?: ApiProvider;
  /** openai: use this client instead of building one */
  openaiClient?: OpenAI;
  /** openai on Azure without `api_key`: Microsoft Entra ID bearer tokens (lib/adapters/azure azureOpenAITokenProvider) */
  azureADTokenProvider?: () => Promise<string>;
  /** http and openai: fetch implementation (the platform passes lib/outbound's policy-checking fetch) */
  fetch?: typeof globalThis.fetch;
  /** replay: outputs cache (default: the process-wide one) */
  replayCache?: ReplayOutputsCache;
}

type Factories = {
  [K in TargetKind]: (settings: Extract<TargetSettings, { kind: K }>, target: TargetSystem, deps: TargetDeps) => Promise<TargetInvoker>;
};

const TARGET_FACTORIES = {
  replay: async (settings, target, deps) => {
    const invoker = new ReplayTarget(settings, {
      targetId: target.id,
      ...(deps.baseDir ? { baseDir: deps.baseDir } : {}),
      ...(deps.replayCache ? { cache: deps.replayCache } : {}),
    });
    await invoker.load();
    return invoker;
  },
  openai: async (settings, target, deps) => {
    const invoker = new OpenAITarget(settings, {
      secrets: deps.secrets,
      targetId: target.id,
      ...(deps.catalog ? { catalog: deps.catalog } : {}),
      ...(deps.apiProvider ? { apiProvider: deps.apiProvider } : {}),
      ...(deps.openaiClient ? { client: deps.openaiClient } : {}),
      ...(deps.azureADTokenProvider ? { azureADTokenProvider: deps.azureADTokenProvider } : {}),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
    await invoker.ready();
    return invoker;
  },
  http: async (settings, target, deps) => {
    const invoker = new HttpTarget(settings, { secrets: deps.secrets, targetId: target.id, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
    await invoker.ready();
    return invoker;
  },
} satisfies Factories;

/**
 * Whether a kind gets ResilientTarget (timeout, retries, breaker, rate limit). Replay does no I/O per call: a retry
 * would replay the same line, a breaker would turn one recorded failure into refusals for other cases, and the
 * default 50 requests/s would stretch a 400,000-case replay to over two hours.
 */
export const RESILIENCE_BY_KIND = { replay: false, openai: true, http: true } as const satisfies Record<TargetKind, boolean>;

/**
 * Builds the bare invoker of a target system (one attempt per invoke; TargetRegistry adds resilience) and checks
 * its configuration now: replay loads its file, openai builds its client, http resolves its header secrets.
 * Throws TargetConfigurationError naming the setting.
 */
export async function createTargetInvoker(target: TargetSystem, deps: TargetDeps): Promise<TargetInvoker> {
  const factory = TARGET_FACTORIES[target.settings.kind] as (settings: TargetSettings, target: TargetSystem, deps: TargetDeps) => Promise<TargetInvoker>;
  return factory(target.settings, target, deps);
}
