import { pinnedCatalogRef, type Run, type TargetSystem, type ToolCatalog } from '../domain/index.js';
import { type ApiProvider, ExecutionConfigurationError, SecretResolutionError, type Services } from '../ports/index.js';
import { JudgeConfigurationError } from '../judges/index.js';
import { TargetConfigurationError, targetNeedsToolExecutor } from '../targets/index.js';

/** One reason a run's effective configuration cannot work, naming the field to fix. */
export interface ConfigProblem {
  /** dotted path: `target.settings.api_key`, `config.execution.cassette_path`, `config.semantics.judge`, ... */
  field: string;
  message: string;
}

/** The run cannot work as configured: the API answers 422 with one error per problem. */
export class RunConfigurationError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(`the run's configuration cannot work: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`);
    this.name = 'RunConfigurationError';
  }
}

export type RunConfigDeps = Pick<Services, 'stores' | 'checkTarget' | 'apiProviderFor' | 'judgeFor'>;

/**
 * Resolves a run's effective configuration the way its workers will (target invoker, its tool catalog, the stage-3
 * provider when stage 3 is on or the target runs a tool loop, the cassette it loads, the stage-4 judge) and returns
 * every problem found, each naming its field. Empty = the run can start. Errors that are not configuration
 * problems (a store down) are thrown.
 */
export async function checkRunConfig(run: Run, target: TargetSystem, deps: RunConfigDeps): Promise<ConfigProblem[]> {
  const problems: ConfigProblem[] = [];
  let catalog: ToolCatalog | undefined;
  const catalogRef = pinnedCatalogRef(target.tool_catalog, run.tool_catalogs);
  if (catalogRef) {
    const id = `${catalogRef.name}@${catalogRef.version}`;
    const stored = await deps.stores.catalogs.get(id);
    if (stored) catalog = { name: stored.name, tool_schema_version: stored.tool_schema_version, tools: stored.tools };
    else problems.push({ field: 'target.tool_catalog', message: `tool catalog ${id} (named by target ${target.id}) does not exist` });
  }
  const loop = targetNeedsToolExecutor(target);
  let provider: ApiProvider | undefined;
  if (run.config.execution.enabled || loop) {
    try {
      provider = await deps.apiProviderFor(run, catalog, target);
    } catch (error) {
      if (!(error instanceof ExecutionConfigurationError)) throw error;
      const why =
        loop && !run.config.execution.enabled ? ` (target ${target.id} executes its tool calls through the stage-3 provider)` : '';
      problems.push({ field: executionField(error.message), message: `${error.message}${why}` });
    }
  }
  if (!loop || provider) {
    try {
      await deps.checkTarget(target, catalog, provider);
    } catch (error) {
      if (error instanceof TargetConfigurationError) problems.push({ field: `target.${error.setting}`, message: error.message });
      else if (error instanceof SecretResolutionError) problems.push({ field: 'target.settings', message: error.message });
      else throw error;
    }
  }
  if (run.config.semantics.enabled) {
    try {
      deps.judgeFor(run);
    } catch (error) {
      if (!(error instanceof JudgeConfigurationError)) throw error;
      const missing = error.missing.length > 0 ? ` (missing settings: ${error.missing.join(', ')})` : '';
      problems.push({ field: 'config.semantics.judge', message: `${error.message}${missing}` });
    }
  }
  return problems;
}

/** `config.execution.<setting>` when the message names one (`execution.base_url is required ...`), else `config.execution`. */
function executionField(message: string): string {
  if (/^cassette\b/i.test(message)) return 'config.execution.cassette_path';
  const named = /\bexecution\.([a-z_]+)/.exec(message);
  if (named) return `config.execution.${named[1]}`;
  if (/catalog/i.test(message)) return 'target.tool_catalog';
  return 'config.execution';
}
