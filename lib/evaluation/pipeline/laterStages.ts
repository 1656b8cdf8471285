/**
 * Stages 3 and 4 on a started case (the steps that call out: the API provider, the judge), single questions and
 * conversation turns alike. Stages 1-2 and the scorecard are in steps.ts.
 */
import type { EvaluationConfig, TestCase } from '../../domain/index.js';
import { runExecutionStage, runStatefulStage } from '../execution/index.js';
import type { ApiProvider, Embedder, Judge } from '../../ports/index.js';
import { runSemanticsStage, scoreReferenceMetrics } from '../semantics/index.js';
import type { CaseState } from './caseState.js';
import { runConversationStage, type TurnContext } from './conversation.js';

/**
 * Stage 3 of a stateful case: the agent's calls and the gold's replayed on fresh instances, final states compared. A
 * conversation turn (`turn`) compares the cumulative state of turns 1..i (the earlier turns' executed calls replayed
 * first, on the same session) and hands what its calls returned to the judge (`api_data`).
 */
function runStatefulExecution(
  state: CaseState,
  testCase: TestCase,
  config: EvaluationConfig,
  started: number,
  turn?: TurnContext,
): CaseState {
  const trajectory = state.invocation.trajectory;
  const out = runStatefulStage(testCase, state.calls, state.assignment, {
    callSet: state.call_set,
    relativeTolerance: testCase.execution?.relative_tolerance ?? config.execution.relative_tolerance,
    ...(trajectory ? { trajectory } : {}),
    ...(turn
      ? {
          conversation: {
            testCase: turn.testCase,
            turn: turn.turn,
            earlier: turn.earlier.map((t) => ({ calls: t.calls, trajectory: t.trajectory, call_set: t.call_set })),
          },
        }
      : {}),
  });
  // a turn's answer is judged on the data its calls returned on the state the earlier turns left (status kept: errors too)
  const apiData = turn
    ? apiDataOf(out.responses.map((r) => ({ tool_name: r.tool_name, response: { ok: true, status: r.status, data: r.data } })))
    : undefined;
  return withExecution(state, out, apiData, started);
}

/** The state after stage 3: its result, the API data for the judge (if any), the calls made and the time spent. */
function withExecution(
  state: CaseState,
  out: { result: CaseState['stages']['execution']; api_calls_made: number },
  apiData: unknown,
  started: number,
): CaseState {
  return {
    ...state,
    ...(apiData === undefined ? {} : { api_data: apiData }),
    stages: { ...state.stages, execution: out.result },
    evaluation: {
      ...state.evaluation,
      api_calls_made: state.evaluation.api_calls_made + out.api_calls_made,
      ms: state.evaluation.ms + (performance.now() - started),
    },
  };
}

/** Stage 3 on a started case: executes the matched calls through the provider and compares the data. */
export async function runExecution(
  state: CaseState,
  testCase: TestCase,
  config: EvaluationConfig,
  provider: ApiProvider,
  abortSignal?: AbortSignal,
): Promise<CaseState> {
  if (state.turns) {
    return runConversationStage(state, testCase, 'execution', (s, tc, turn) => executeOne(s, tc, config, provider, abortSignal, turn));
  }
  return executeOne(state, testCase, config, provider, abortSignal);
}

/** Stage 3 on one single-question state: a case, or one turn of a conversation (`turn`). */
async function executeOne(
  state: CaseState,
  testCase: TestCase,
  config: EvaluationConfig,
  provider: ApiProvider,
  abortSignal?: AbortSignal,
  turn?: TurnContext,
): Promise<CaseState> {
  const started = performance.now();
  if (testCase.environment) return runStatefulExecution(state, testCase, config, started, turn);
  const out = await runExecutionStage(state.calls, testCase, state.assignment, {
    provider,
    relativeTolerance: config.execution.relative_tolerance,
    timeoutInMs: config.execution.timeout_ms,
    callSet: state.call_set,
    ...(abortSignal ? { abortSignal } : {}),
  });
  const apiData = apiDataOf(out.responses);
  return withExecution(state, out, apiData, started);
}

/**
 * Stage 4 on a started case: the judge scores the answer against the reference, and the reference metrics the run
 * enabled (semantics.reference_metrics) are computed beside it (`embedder` serves embedding_cosine).
 */
export async function runSemantics(
  state: CaseState,
  testCase: TestCase,
  config: EvaluationConfig,
  judge: Judge,
  abortSignal?: AbortSignal,
  embedder?: Embedder,
): Promise<CaseState> {
  if (state.turns) {
    return runConversationStage(state, testCase, 'semantics', (s, tc) => runSemantics(s, tc, config, judge, abortSignal, embedder));
  }
  const started = performance.now();
  const out = await runSemanticsStage(testCase, state.answer, {
    judge,
    passThreshold: config.semantics.pass_threshold,
    toolCalls: state.calls,
    ...(state.api_data === undefined ? {} : { rawData: state.api_data }),
    ...(abortSignal ? { abortSignal } : {}),
  });
  const names = config.semantics.reference_metrics;
  const metrics = names.length
    ? await scoreReferenceMetrics(
        names,
        { reference: testCase.expected_nl_response, answer: state.answer },
        { ...(embedder ? { embedder } : {}), ...(abortSignal ? { abortSignal } : {}) },
      )
    : undefined;
  const e = state.evaluation;
  return {
    ...state,
    ...(metrics ? { reference_metrics: metrics } : {}),
    stages: { ...state.stages, semantics: out.result },
    evaluation: {
      ...e,
      input_tokens: e.input_tokens + out.input_tokens,
      output_tokens: e.output_tokens + out.output_tokens,
      cost_usd: e.cost_usd + out.cost_usd,
      ms: e.ms + (performance.now() - started),
    },
  };
}

/** Longest API data carried to the judge (characters of JSON); beyond it the data is cut, with a marker. */
const MAX_API_DATA_CHARS = 12_000;

/** What the executed calls returned, compact enough for a queue message: tool, status and data or the failure. */
function apiDataOf(
  responses: ReadonlyArray<{ tool_name: string; response: { ok: boolean; status?: number; data?: unknown; message?: string } }>,
): unknown {
  if (responses.length === 0) return undefined;
  const data = responses.map((r) =>
    r.response.ok
      ? { tool: r.tool_name, status: r.response.status, data: r.response.data }
      : { tool: r.tool_name, failed: r.response.message },
  );
  const text = JSON.stringify(data);
  return text.length <= MAX_API_DATA_CHARS
    ? data
    : `${text.slice(0, MAX_API_DATA_CHARS)} ... [${text.length - MAX_API_DATA_CHARS} more characters cut]`;
}
