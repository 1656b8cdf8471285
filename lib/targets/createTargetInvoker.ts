import type { Anthropic } from '@anthropic-ai/sdk';
import type { OpenAI } from 'openai';
import type { TargetKind, TargetSettings, TargetSystem, ToolCatalog } from '../domain/index.js';
import type { ApiProvider, SecretResolver, TargetInvoker } from '../ports/index.js';
import { AnthropicTarget } from './anthropic/anthropicTarget.js';
import { TargetConfigurationError } from './errors.js';
import { HttpTarget } from './http/httpTarget.js';
import { McpToolTarget } from './mcp/mcpTarget.js';
import type { McpServerPool } from './mcp/mcpServerPool.js';
import { McpToolSource } from './mcp/mcpToolSource.js';
import { McpServerUnavailableError } from './mcp/mcpErrors.js';
import { ExpectedCallsInvoker } from './toolMode/expectedCallsInvoker.js';
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
  /** anthropic: use this client instead of building one */
  anthropicClient?: Anthropic;
  /** the process's MCP servers (required by targets with `mcp_servers`; TargetRegistry supplies its own) */
  mcpPool?: McpServerPool;
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
  anthropic: async (settings, target, deps) => {
    const invoker = new AnthropicTarget(settings, {
      secrets: deps.secrets,
      targetId: target.id,
      ...(deps.catalog ? { catalog: deps.catalog } : {}),
      ...(deps.apiProvider ? { apiProvider: deps.apiProvider } : {}),
      ...(deps.anthropicClient ? { client: deps.anthropicClient } : {}),
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
export const RESILIENCE_BY_KIND = { replay: false, openai: true, http: true, anthropic: true } as const satisfies Record<
  TargetKind,
  boolean
>;

/**
 * Builds the bare invoker of a target system (one attempt per invoke; TargetRegistry adds resilience) and checks
 * its configuration now: replay loads its file, openai builds its client, http resolves its header secrets.
 * Throws TargetConfigurationError naming the setting.
 */
export async function createTargetInvoker(target: TargetSystem, deps: TargetDeps): Promise<TargetInvoker> {
  const factory = TARGET_FACTORIES[target.settings.kind] as (
    settings: TargetSettings,
    target: TargetSystem,
    deps: TargetDeps,
  ) => Promise<TargetInvoker>;
  if (target.eval_mode === 'tool') return toolModeInvoker(target, deps);
  if (target.eval_mode === 'mcp' && !target.mcp_servers?.length) {
    throw new TargetConfigurationError(
      'eval_mode',
      `target ${target.id}: eval_mode "mcp" evaluates a model driving MCP servers, but the target names no mcp_servers`,
    );
  }
  if (target.mcp_servers?.length) return mcpTarget(target, deps, factory);
  return factory(target.settings, target, deps);
}

/**
 * `eval_mode: 'tool'`: no model is called; each case answers with its expected calls and stage 3 checks what the
 * tools return (the live API, a cassette, or the target's MCP servers with `execution.provider: "mcp"`).
 */
async function toolModeInvoker(target: TargetSystem, deps: TargetDeps): Promise<TargetInvoker> {
  const servers = target.mcp_servers ?? [];
  if (servers.length && !deps.mcpPool)
    throw new TargetConfigurationError('mcp_servers', `target ${target.id}: this host was built without an MCP server pool`);
  const invoker = new ExpectedCallsInvoker(
    target.id,
    target.settings.kind,
    servers.length && deps.mcpPool ? new McpToolSource(target.id, servers, deps.mcpPool) : undefined,
  );
  try {
    await invoker.ready();
  } catch (error) {
    if (error instanceof McpServerUnavailableError)
      throw new TargetConfigurationError(`mcp_servers.${error.server}`, `target ${target.id}: ${error.message}`, { cause: error });
    throw error;
  }
  return invoker;
}

/** The kinds that can offer MCP tools to a model (they run the tool loop). */
const MCP_KINDS = new Set<TargetKind>(['openai', 'anthropic']);

/**
 * A target with `mcp_servers`: its model is offered the servers' tools (a snapshot catalog, not `tool_catalog`) and
 * its calls run on the servers, in the tool loop (on even when `agentic_loop` is not set: a model with MCP tools is
 * an agent; `agentic_loop.max_turns` caps it). Starts the servers now: one that will not start is a
 * TargetConfigurationError naming `mcp_servers.<name>`.
 */
async function mcpTarget(
  target: TargetSystem,
  deps: TargetDeps,
  factory: (settings: TargetSettings, target: TargetSystem, deps: TargetDeps) => Promise<TargetInvoker>,
): Promise<TargetInvoker> {
  const settings = target.settings;
  if (!MCP_KINDS.has(settings.kind) || (settings.kind !== 'openai' && settings.kind !== 'anthropic')) {
    throw new TargetConfigurationError(
      'mcp_servers',
      `target ${target.id}: mcp_servers needs a model target (kind openai or anthropic), not ${settings.kind}`,
    );
  }
  if (!deps.mcpPool)
    throw new TargetConfigurationError('mcp_servers', `target ${target.id}: this host was built without an MCP server pool`);
  const looped = { ...settings, agentic_loop: { enabled: true, max_turns: settings.agentic_loop?.max_turns ?? 5 } };
  const source = new McpToolSource(target.id, target.mcp_servers ?? [], deps.mcpPool);
  const invoker = new McpToolTarget(target.id, settings.kind, source, (catalog, executor) =>
    factory(looped, target, { ...deps, catalog, apiProvider: executor }),
  );
  await invoker.ready();
  return invoker;
}
