import type { ExecutionConfig, ToolCatalog } from '../domain/index.js';
import { type ApiProvider, type ApiProviderKind, type CassetteStore, ExecutionConfigurationError } from '../ports/index.js';
import { ExpectedDataProvider, RecordedApiProvider } from '../evaluation/index.js';
import { HttpApiProvider, JsonlCassette } from '../adapters/execution/index.js';
import { EnvironmentApiProvider } from '../environments/index.js';

export interface ApiProviderDeps {
  /** tools with their `http` mappings: needed by `http`, and by `recorded` in record mode */
  catalog?: ToolCatalog;
  /** a cassette to use instead of loading `cassette_path` */
  cassette?: CassetteStore;
  /** headers for every live request (e.g. an API key resolved from a secret reference) */
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
}

type ProviderFactory = (config: ExecutionConfig, deps: ApiProviderDeps) => Promise<ApiProvider>;

const PROVIDER_FACTORIES = {
  http: async (config, deps) => httpProvider(config, deps),
  expected: async () => new ExpectedDataProvider(),
  environment: async () => new EnvironmentApiProvider(),
  mcp: async () => {
    throw new ExecutionConfigurationError(
      'execution.provider "mcp" calls the tools on the target\'s MCP servers: it needs a target with mcp_servers (the run services build it)',
    );
  },
  recorded: async (config, deps) => {
    const live = config.mode === 'record' ? httpProvider(config, deps) : undefined;
    const cassette = deps.cassette ?? (await loadCassette(config, live !== undefined));
    return new RecordedApiProvider({ cassette, mode: config.mode, ...(live ? { live } : {}) });
  },
} satisfies Record<ApiProviderKind, ProviderFactory>;

/**
 * Builds the provider `config.provider` names. Loads the JSONL cassette at `cassette_path` for `recorded`
 * (unless `deps.cassette` is given; in record mode a missing file starts empty). Throws
 * ExecutionConfigurationError when a setting the provider needs is missing.
 */
export async function createApiProvider(config: ExecutionConfig, deps: ApiProviderDeps = {}): Promise<ApiProvider> {
  return PROVIDER_FACTORIES[config.provider](config, deps);
}

function httpProvider(config: ExecutionConfig, deps: ApiProviderDeps): HttpApiProvider {
  const needs = config.provider === 'recorded' ? 'the recorded provider in record mode' : 'the http provider';
  if (!config.base_url) throw new ExecutionConfigurationError(`execution.base_url is required by ${needs}`);
  if (!deps.catalog) throw new ExecutionConfigurationError(`a tool catalog with http mappings is required by ${needs}`);
  return new HttpApiProvider({
    baseUrl: config.base_url,
    catalog: deps.catalog,
    timeoutInMs: config.timeout_ms,
    ...(deps.headers ? { headers: deps.headers } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
}

async function loadCassette(config: ExecutionConfig, createIfMissing: boolean): Promise<CassetteStore> {
  if (!config.cassette_path) throw new ExecutionConfigurationError('execution.cassette_path is required by the recorded provider');
  return JsonlCassette.load(config.cassette_path, { createIfMissing });
}
