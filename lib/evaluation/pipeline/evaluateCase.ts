import { type EvaluationConfig, isConversation, type Scorecard, type TestCase, type ToolCatalog } from '../../domain/index.js';
import type { ApiProvider, Embedder, Judge } from '../../ports/index.js';
import { nextStage } from './caseState.js';
import { finishCase, startCase, startSingleCase, type CaseInput } from './steps.js';
import { runExecution, runSemantics } from './laterStages.js';

/** What the pipeline needs besides the case and the output: catalogs and the switchable stages' ports. */
export interface PipelineDeps {
  /** the tool catalog a case refers to (or the run's default catalog); undefined = no schema validation */
  catalogFor?: (testCase: TestCase) => ToolCatalog | undefined;
  /** stage 3 provider; required when execution is enabled */
  apiProvider?: ApiProvider;
  /** stage 4 judge; required when semantics is enabled */
  judge?: Judge;
  /** embeddings for the embedding_cosine reference metric; without it that metric is skipped with the reason */
  embedder?: Embedder;
}

export interface CaseOutput extends Omit<CaseInput, 'catalog'> {
  abortSignal?: AbortSignal;
  /** the scorecard timestamp; defaults to now */
  timestamp?: string;
}

/**
 * The whole waterfall for one case in one process: 1 syntax (gate) -> 2 logic -> 3 execution -> 4 semantics.
 * A syntax failure stops the case; a logic failure is recorded and the later stages still run; stages 3 and 4
 * run only when enabled. Never throws for anything the target produced; throws only for broken configuration
 * (an enabled stage without its port). Stage workers run the same steps split across queues.
 */
export async function evaluateCase(input: CaseOutput, config: EvaluationConfig, deps: PipelineDeps = {}): Promise<Scorecard> {
  if (config.execution.enabled && !deps.apiProvider) throw new Error('execution is enabled but no ApiProvider was given to the pipeline');
  if (config.semantics.enabled && !deps.judge) throw new Error('semantics is enabled but no Judge was given to the pipeline');
  const catalog = deps.catalogFor?.(input.testCase);
  let state =
    catalog === undefined || isConversation(input.testCase)
      ? startCase(catalog ? { ...input, catalog } : input, config)
      : startSingleCase(input, config, catalog); // the usual case, without copying the input
  const enabled = { execution: config.execution.enabled, semantics: config.semantics.enabled };
  for (let next = nextStage(state, enabled); next !== 'done'; next = nextStage(state, enabled)) {
    state =
      next === 'execution'
        ? await runExecution(state, input.testCase, config, deps.apiProvider!, input.abortSignal)
        : await runSemantics(state, input.testCase, config, deps.judge!, input.abortSignal, deps.embedder);
  }
  return finishCase(state, input.testCase, config, input.timestamp);
}
