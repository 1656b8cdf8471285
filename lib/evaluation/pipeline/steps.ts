import {
  type EvaluationConfig,
  type JsonObject,
  type LogicDetails,
  outcomeKindOf,
  resolveCoercionPolicy,
  type Scorecard,
  type StageName,
  type StageResult,
  type TestCase,
  type ToolCall,
  type ToolCatalog,
  type Trajectory,
  isConversation,
} from '../../domain/index.js';
import {
  callOutcomesOf,
  checkBehaviour,
  type LogicStageOptions,
  runLogicStage,
  scoreRouting,
  withBehaviour,
  withRouting,
} from '../logic/index.js';
import { runSyntaxStage } from '../syntax/index.js';
import { invalidCaseReason } from '../execution/index.js';
import { compatVerdictOf } from '../bfclCompat/index.js';
import { decideVerdict } from './passRule.js';
import { toolResultsOf } from './toolResults.js';
import { skippedStage } from './stageResults.js';
import { PENDING, type CaseState } from './caseState.js';
import { finishConversation, neededCalls, startConversation, type TurnOutput } from './conversation.js';
import { efficiencyOf, withoutRedundantRepeats, withRedundancyRule } from './efficiency.js';

/** What the target produced (or a recorded output) plus what invoking it cost. */
export interface CaseInput {
  runId: string;
  testCase: TestCase;
  /** the target's raw output, in any format stage 1 parses */
  output: unknown;
  catalog?: ToolCatalog;
  latencyMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  workerId?: string;
  attempt?: number;
  clientType?: string;
  clientVersion?: string | null;
  evalMode?: Scorecard['eval_mode'];
  /** the agent a multi-agent target says answered, and why it was routed there */
  agent?: string;
  routingReason?: string;
  /** the trial (1..k) of a run with `trials: k`; default 1 */
  trial?: number;
  /** the agent's tool loop, step by step (kept on the scorecard) */
  trajectory?: Trajectory;
  /** tool calls the target executed in its own loop */
  apiCallsMade?: number;
  /** the entities a multi-agent endpoint says it resolved */
  entities?: JsonObject;
  /** orchestrator mode: the agent, reason and entities are scored in stage 2 when the case expects them */
  orchestrator?: boolean;
  /** a conversation case: what the target produced for each turn (TargetSuccess.turns); `output` is then unused */
  turns?: readonly TurnOutput[];
  /**
   * set by startConversation on one turn's input: the calls the agent executed in the earlier turns (scripted faults
   * count per conversation). Its gold was checked over the whole conversation, so the turn is not checked alone.
   */
  earlierCalls?: readonly ToolCall[];
}

/**
 * Stages 1 and 2, pure and synchronous (microseconds): the syntax gate, then the logic comparison. Stages 3
 * and 4 are marked pending when enabled (and the gate passed), else skipped with the reason.
 */
export function startCase(input: CaseInput, config: EvaluationConfig): CaseState {
  if (!isConversation(input.testCase)) return startSingleCase(input, config, input.catalog);
  // a conversation's gold replays cumulatively (turn 3 on the state turns 1-2 left); a broken one is not scored
  const invalid = invalidCaseReason(input.testCase);
  if (invalid !== undefined) return invalidCase(input, config, invalid, performance.now());
  return startConversation(input, config, startSingleCase);
}

/** `catalog` overrides `input.catalog` (evaluateCase passes the one it looked up without copying the input). */
export function startSingleCase(input: CaseInput, config: EvaluationConfig, catalog = input.catalog): CaseState {
  const started = performance.now();
  const { testCase } = input;
  const policy = resolveCoercionPolicy(config.coercion, testCase.coercion);
  // hot path (once per case): objects are built field by field in their documented order, never with conditional
  // spreads (`...(x ? {x} : {})` costs a runtime call each) or per-case closures
  const syntax = runSyntaxStage(input.output, catalog ? { catalog, coercion: policy } : {});
  // a stateful case whose gold does not replay is not scored (a conversation's turn: checked over the conversation)
  const invalid = input.earlierCalls ? undefined : invalidCaseReason(testCase);
  if (invalid !== undefined) return invalidCase(input, config, invalid, started);
  const gate = syntax.result.passed;
  const stages: Record<StageName, StageResult> = {
    syntax: syntax.result,
    logic: skippedStage('logic', 'not run: the syntax gate failed'),
    execution: laterStage('execution', config.execution.enabled, gate),
    semantics: laterStage('semantics', config.semantics.enabled, gate),
  };
  let assignment: CaseState['assignment'] = [];
  let callSet = -1;
  if (gate) {
    const allOutcomes = callOutcomesOf(syntax.calls, testCase, input.trajectory, input.earlierCalls);
    const logicOptions: LogicStageOptions = { policy, casePolicy: policy };
    if (catalog) logicOptions.catalog = catalog;
    if (allOutcomes) logicOptions.outcomes = allOutcomes;
    let logic = runLogicStage(syntax.calls, testCase, logicOptions);
    let originalIndex: number[] | undefined; // undefined: stage 2 compared syntax.calls as they are
    if (!logic.result.passed && input.trajectory) {
      // redundant repeats (the same call, the same result again) cost efficiency, not correctness: calls that are right
      // without them pass stage 2, and fail only as `redundant_call` when the run sets fail_on_redundant_calls. Only
      // with a trajectory: without the results a repeated call may have changed something (a second refund), so an
      // unexpected duplicate in a single answer stays an extra call
      const withoutRepeats = withoutRedundantRepeats(syntax.calls, input.trajectory);
      if (withoutRepeats.calls.length < syntax.calls.length) {
        const outcomes = allOutcomes && withoutRepeats.originalIndex.map((i) => allOutcomes[i]);
        const retriedOptions: LogicStageOptions = { policy, casePolicy: policy };
        if (catalog) retriedOptions.catalog = catalog;
        if (outcomes) retriedOptions.outcomes = outcomes;
        const retried = runLogicStage(withoutRepeats.calls, testCase, retriedOptions);
        if (retried.result.passed) [logic, originalIndex] = [retried, withoutRepeats.originalIndex];
      }
    }
    stages.logic = withBehaviour(logic.result, checkBehaviour(testCase, syntax.calls, syntax.answer, input.trajectory, input.earlierCalls));
    const routing = input.orchestrator
      ? scoreRouting(testCase, { agent: input.agent, routing_reason: input.routingReason, entities: input.entities }, policy)
      : undefined;
    if (routing) stages.logic = withRouting(stages.logic, routing);
    assignment = originalIndex === undefined ? logic.assignment : mapAssignment(logic.assignment, originalIndex);
    callSet = logic.call_set;
  }
  const efficiency = efficiencyOf(
    [{ calls: syntax.calls, trajectory: input.trajectory, needed: neededCalls(testCase, callSet) }],
    (input.inputTokens ?? 0) + (input.outputTokens ?? 0),
  );
  if (gate) stages.logic = withRedundancyRule(stages.logic, efficiency, config.fail_on_redundant_calls);
  const invocation: CaseState['invocation'] = {
    latency_ms: input.latencyMs ?? 0,
    input_tokens: input.inputTokens ?? 0,
    output_tokens: input.outputTokens ?? 0,
    cost_usd: input.costUsd ?? 0,
    client_type: input.clientType ?? 'unknown',
    client_version: input.clientVersion ?? null,
    eval_mode: input.evalMode ?? 'offline',
  };
  if (input.agent !== undefined) invocation.agent = input.agent;
  if (input.routingReason !== undefined) invocation.routing_reason = input.routingReason;
  if (input.trajectory !== undefined) invocation.trajectory = input.trajectory;
  if (input.apiCallsMade) invocation.api_calls_made = input.apiCallsMade;
  if (input.entities !== undefined) invocation.entities = input.entities;
  const state = { run_id: input.runId, test_case_id: testCase.id } as CaseState;
  if (input.trial !== undefined && input.trial > 1) state.trial = input.trial;
  state.stages = stages;
  state.calls = syntax.calls;
  state.answer = syntax.answer;
  state.assignment = assignment;
  state.call_set = callSet;
  state.invocation = invocation;
  state.evaluation = { api_calls_made: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, ms: performance.now() - started };
  state.worker_id = input.workerId ?? 'local';
  state.attempt = input.attempt ?? 1;
  state.efficiency = efficiency;
  return state;
}

/** Stage 3 or 4 before it runs: pending when enabled and the gate passed, else skipped with the reason. */
function laterStage(name: 'execution' | 'semantics', enabled: boolean, gate: boolean): StageResult {
  return skippedStage(name, !enabled ? 'disabled by the evaluation config' : gate ? PENDING : 'not run: the syntax gate failed');
}

/** Stage 2's pairing over the calls it compared, mapped back to positions in the parsed calls. */
function mapAssignment(assignment: CaseState['assignment'], originalIndex: readonly number[]): CaseState['assignment'] {
  return assignment.map((a) => ({ expected_index: a.expected_index, actual_index: originalIndex[a.actual_index] ?? a.actual_index }));
}

/**
 * A case whose target did not answer (error, timeout, open circuit): the syntax gate could not score (status
 * `error`, score null) with the target's error code and message, nothing else runs. The case gets a scorecard
 * (so the run still finishes) whose outcome is `not_scored`: it never counts as a model failure.
 */
export function startFailedCase(
  input: Omit<CaseInput, 'output' | 'catalog'>,
  failure: { error_code: 'target_error' | 'target_timeout'; message: string },
  config: EvaluationConfig,
): CaseState {
  const { efficiency: _none, turns: _turns, ...state } = startSingleCase({ ...input, output: null }, config);
  const syntax: StageResult = {
    stage: 'syntax',
    status: 'error',
    passed: false,
    score: null,
    error_code: failure.error_code,
    message: failure.message,
    duration_ms: 0,
  };
  const stopped = (name: 'execution' | 'semantics', enabled: boolean): StageResult =>
    skippedStage(name, enabled ? 'not run: the target did not answer' : 'disabled by the evaluation config');
  return {
    ...state,
    stages: {
      syntax,
      logic: skippedStage('logic', 'not run: the target did not answer'),
      execution: stopped('execution', config.execution.enabled),
      semantics: stopped('semantics', config.semantics.enabled),
    },
  };
}

/**
 * A stateful case whose gold calls do not replay on their initial state: reported invalid, not scored. The syntax
 * stage carries `invalid_case` with the reason (status `error`, like a target that did not answer); nothing else runs.
 */
function invalidCase(input: CaseInput, config: EvaluationConfig, reason: string, started: number): CaseState {
  const { environment: _invalid, ...stateless } = input.testCase; // the case without its environment: not checked again
  const state = startFailedCase({ ...input, testCase: stateless }, { error_code: 'target_error', message: reason }, config);
  const skip = (name: StageName) => skippedStage(name, 'not run: the case is invalid (its gold calls do not replay)');
  return {
    ...state,
    stages: {
      syntax: {
        stage: 'syntax',
        status: 'error',
        passed: false,
        score: null,
        error_code: 'invalid_case',
        message: `invalid case: ${reason}`,
        duration_ms: 0,
      },
      logic: skip('logic'),
      execution: config.execution.enabled ? skip('execution') : state.stages.execution,
      semantics: config.semantics.enabled ? skip('semantics') : state.stages.semantics,
    },
    evaluation: { ...state.evaluation, ms: performance.now() - started },
  };
}

/** The verdict and the scorecard of a finished case. */
export function finishCase(state: CaseState, testCase: TestCase, config: EvaluationConfig, timestamp = nowIso()): Scorecard {
  const card = finishSingleCase(state, testCase, config, timestamp);
  return state.turns ? finishConversation(card, state, testCase, config) : card;
}

let lastMs = Number.NaN;
let lastIso = '';

/** `new Date().toISOString()`, formatted once per millisecond (a busy worker finishes many cases in one). */
function nowIso(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

function finishSingleCase(state: CaseState, testCase: TestCase, config: EvaluationConfig, timestamp: string): Scorecard {
  const verdict = decideVerdict(state.stages, config.weights);
  const inv = state.invocation;
  const ev = state.evaluation;
  // built field by field in the scorecard's documented order (no conditional spreads: this runs once per case)
  const card = { run_id: state.run_id, test_case_id: state.test_case_id } as Scorecard;
  if (state.trial !== undefined && state.trial > 1) card.trial = state.trial;
  card.timestamp = timestamp;
  card.stages = state.stages;
  if (verdict.failing_stage) card.failing_stage = verdict.failing_stage;
  if (verdict.error_code) card.error_code = verdict.error_code;
  card.generated_tool_calls = state.calls;
  card.generated_nl_response = state.answer;
  if (inv.agent !== undefined) card.agent = inv.agent;
  if (inv.routing_reason !== undefined) card.routing_reason = inv.routing_reason;
  if (inv.trajectory !== undefined) card.trajectory = inv.trajectory;
  if (inv.entities !== undefined) card.entities = inv.entities;
  card.tool_results = toolResultsOf(testCase, state.calls, state.stages.logic.details as LogicDetails | undefined);
  if (state.reference_metrics) card.reference_metrics = state.reference_metrics;
  if (state.efficiency) card.efficiency = state.efficiency;
  card.overall_passed = verdict.overall_passed;
  card.overall_score = verdict.overall_score;
  card.outcome = outcomeKindOf({
    overall_passed: verdict.overall_passed,
    error_code: verdict.error_code,
    failing_stage: verdict.failing_stage,
    stages: state.stages,
  });
  card.latency_ms = inv.latency_ms;
  card.evaluation_ms = Math.round(ev.ms * 1000) / 1000;
  card.worker_id = state.worker_id;
  card.attempt_number = state.attempt;
  card.client_type = inv.client_type;
  card.client_version = inv.client_version;
  card.eval_mode = inv.eval_mode;
  card.input_tokens = inv.input_tokens + ev.input_tokens;
  card.output_tokens = inv.output_tokens + ev.output_tokens;
  card.api_calls_made = ev.api_calls_made + (inv.api_calls_made ?? 0);
  card.estimated_cost_usd = inv.cost_usd + ev.cost_usd;
  card.category = testCase.metadata.category ?? null;
  card.tags = testCase.metadata.tags;
  card.complexity_level = testCase.metadata.complexity_level;
  return config.compat ? compatVerdictOf(card, testCase, config.compat) : card;
}
