import {
  type EvaluationConfig,
  type LogicDetails,
  outcomeKindOf,
  STAGE_NAMES,
  type Scorecard,
  type StageName,
  type StageResult,
  type TestCase,
  type ToolCall,
  type ToolResult,
  type Trajectory,
  type TurnResult,
  turnCaseOf,
} from '../../domain/index.js';
import { checkClarification, executedCalls } from '../logic/index.js';
import { PENDING, type CaseState, type TurnState } from './caseState.js';
import { efficiencyOf, withRedundancyRule, type EfficiencyPart } from './efficiency.js';
import { decideVerdict } from './passRule.js';
import { skippedStage } from './stageResults.js';
import { toolResultsOf } from './toolResults.js';

/** What a target produced for one turn of a conversation (TargetSuccess.turns). */
export interface TurnOutput {
  /** the turn's raw output, in any format stage 1 parses */
  output: unknown;
  /** the agent's tool loop in this turn, when it ran one */
  trajectory?: Trajectory | undefined;
  input_tokens?: number | undefined;
  output_tokens?: number | undefined;
}

/** What starting a conversation reads of the pipeline's CaseInput (kept structural: steps.ts imports this file). */
interface ConversationInput {
  testCase: TestCase;
  output: unknown;
  turns?: readonly TurnOutput[] | undefined;
  trajectory?: Trajectory | undefined;
  earlierCalls?: readonly ToolCall[] | undefined;
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  catalog?: unknown;
}

/**
 * Stages 1-2 of a conversation case: each turn is scored as the single-question case `turnCaseOf` makes of it
 * (by `startSingle`, the ordinary start), with the clarification rules of stage 2 applied to its answer; the case's
 * `stages` aggregate the turns (see `aggregateStages`). A target that gave no output per turn (it cannot hold a
 * conversation, or a recording lacks turns) leaves the case not scored (`target_error`), never a model failure.
 */
export function startConversation<I extends ConversationInput>(
  input: I,
  config: EvaluationConfig,
  startSingle: (input: I, config: EvaluationConfig) => CaseState,
): CaseState {
  const { testCase } = input;
  const turns = testCase.turns ?? [];
  const outputs = input.turns;
  const single = { ...config, fail_on_redundant_calls: false };
  if (!outputs || outputs.length !== turns.length) {
    const shell = startSingle(
      { ...input, testCase: turnCaseOf(testCase, 0), output: null, turns: undefined, trajectory: undefined, earlierCalls: [] } as I,
      single,
    );
    const { efficiency: _none, ...rest } = shell;
    const why = !outputs
      ? 'the target gave one output, not one per turn (it cannot hold a conversation, or its recording has no `turns`)'
      : `the target gave ${outputs.length} turn output(s) for a conversation of ${turns.length} turn(s)`;
    return {
      ...rest,
      test_case_id: testCase.id,
      stages: {
        syntax: {
          stage: 'syntax',
          status: 'error',
          passed: false,
          score: null,
          error_code: 'target_error',
          message: `conversation case ${testCase.id}: ${why}`,
          duration_ms: 0,
        },
        logic: skippedStage('logic', 'not run: the target did not answer each turn'),
        execution: skippedStage('execution', 'not run: the target did not answer each turn'),
        semantics: skippedStage('semantics', 'not run: the target did not answer each turn'),
      },
    };
  }
  let first: CaseState | undefined;
  const states: TurnState[] = [];
  const parts: EfficiencyPart[] = [];
  // the calls executed so far in the conversation: its environment session (and scripted faults) span the turns
  let earlierCalls: ToolCall[] = [];
  turns.forEach((turn, i) => {
    const out = outputs[i]!;
    const started = startSingle(
      {
        ...input,
        testCase: turnCaseOf(testCase, i),
        output: out.output,
        turns: undefined,
        earlierCalls,
        trajectory: out.trajectory,
        inputTokens: out.input_tokens ?? 0,
        outputTokens: out.output_tokens ?? 0,
      } as I,
      single,
    );
    first ??= started;
    earlierCalls = [...earlierCalls, ...executedCalls(started.calls, out.trajectory)];
    const stages = { ...started.stages };
    if (stages.syntax.status === 'passed') stages.logic = checkClarification(turn, started.calls, started.answer, stages.logic);
    states.push({
      stages,
      calls: started.calls,
      answer: started.answer,
      assignment: started.assignment,
      call_set: started.call_set,
      ...(out.trajectory ? { trajectory: out.trajectory } : {}),
      input_tokens: out.input_tokens ?? 0,
      output_tokens: out.output_tokens ?? 0,
    });
    parts.push({ calls: started.calls, trajectory: out.trajectory, needed: neededCalls(turnCaseOf(testCase, i), started.call_set) });
  });
  const tokens = (input.inputTokens ?? 0) + (input.outputTokens ?? 0);
  const efficiency = efficiencyOf(parts, tokens);
  if (config.fail_on_redundant_calls && efficiency.redundant_calls > 0) {
    // the turn in which the first redundant call was made fails stage 2
    let before = 0;
    for (let i = 0; i < parts.length; i++) {
      const upTo = efficiencyOf(parts.slice(0, i + 1), 0).redundant_calls;
      if (upTo > before) {
        states[i]!.stages.logic = withRedundancyRule(states[i]!.stages.logic, { ...efficiency, redundant_calls: upTo - before }, true);
        break;
      }
      before = upTo;
    }
  }
  const { trajectory: _single, ...invocation } = first!.invocation;
  return {
    ...first!,
    test_case_id: testCase.id,
    invocation,
    stages: aggregateStages(states),
    calls: states.flatMap((s) => s.calls),
    answer: states.at(-1)?.answer ?? null,
    assignment: [],
    call_set: -1,
    efficiency,
    turns: states,
  };
}

/** The calls of the expected set stage 2 matched (-1 = expected_tool_calls). */
export function neededCalls(testCase: TestCase, callSet: number): number {
  return (callSet >= 0 ? testCase.alternative_tool_calls[callSet] : undefined)?.length ?? testCase.expected_tool_calls.length;
}

/**
 * A conversation's stage results, one per stage over its turns: the first turn (in order) whose stage failed or
 * could not score, its message prefixed with the turn; else passed with the mean score of the turns that scored;
 * else (no turn ran it) skipped, pending while any turn's stage is pending. So the waterfall (`nextStage`), stage
 * statistics and filters read a conversation like any case.
 */
export function aggregateStages(turns: readonly TurnState[]): Record<StageName, StageResult> {
  const out = {} as Record<StageName, StageResult>;
  for (const name of STAGE_NAMES) {
    const results = turns.map((t) => t.stages[name]);
    const bad = results.findIndex((r) => r.status === 'failed' || r.status === 'error');
    if (bad >= 0) {
      const r = results[bad]!;
      out[name] = { ...r, message: `turn ${bad + 1} of ${turns.length}: ${r.message ?? r.error_code ?? r.status}` };
      continue;
    }
    const ran = results.filter((r) => r.status === 'passed');
    const duration = results.reduce((sum, r) => sum + r.duration_ms, 0);
    if (ran.length > 0) {
      const scored = ran.filter((r) => r.score !== null).map((r) => r.score!);
      const score = scored.length ? scored.reduce((a, b) => a + b, 0) / scored.length : null;
      out[name] = {
        stage: name,
        status: 'passed',
        passed: true,
        score,
        message: `${ran.length} of ${turns.length} turn(s) ran it and passed`,
        duration_ms: duration,
      };
      continue;
    }
    const pending = results.find((r) => r.message === PENDING);
    out[name] = pending ?? results[0] ?? skippedStage(name, 'no turn');
  }
  return out;
}

/** Which turn of which conversation a single-question step is running on, and the turns before it (for stage 3's cumulative state). */
export interface TurnContext {
  testCase: TestCase;
  turn: number;
  earlier: readonly TurnState[];
}

/**
 * Runs a later stage (3 or 4) on every turn still pending it, each as its own single-question state (`runSingle`
 * is the ordinary stage step, told the turn and the turns before it), in turn order; the evaluation's cost
 * accumulates over the turns.
 */
export async function runConversationStage(
  state: CaseState,
  testCase: TestCase,
  stage: 'execution' | 'semantics',
  runSingle: (state: CaseState, testCase: TestCase, turn: TurnContext) => Promise<CaseState>,
): Promise<CaseState> {
  const turns = [...(state.turns ?? [])];
  let evaluation = state.evaluation;
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    if (turn.stages[stage].message !== PENDING || turn.stages[stage].status !== 'skipped') continue;
    const { turns: _turns, api_data: _data, reference_metrics: _metrics, ...base } = state;
    const single: CaseState = {
      ...base,
      // the turn's own tool loop (stage 3 replays the calls it executed)
      invocation: { ...base.invocation, ...(turn.trajectory ? { trajectory: turn.trajectory } : {}) },
      evaluation,
      stages: turn.stages,
      calls: turn.calls,
      answer: turn.answer,
      assignment: turn.assignment,
      call_set: turn.call_set,
      ...(turn.api_data === undefined ? {} : { api_data: turn.api_data }),
    };
    const done = await runSingle(single, turnCaseOf(testCase, i), { testCase, turn: i, earlier: turns.slice(0, i) });
    evaluation = done.evaluation;
    turns[i] = { ...turn, stages: done.stages, ...(done.api_data === undefined ? {} : { api_data: done.api_data }) };
  }
  return { ...state, evaluation, turns, stages: aggregateStages(turns) };
}

/**
 * The scorecard of a finished conversation, from the ordinary one (`card`, built from the aggregated stages): the
 * verdict is per turn (the ordinary pass rule on each turn's stages); the case passes when every turn passes; the
 * first turn that did not pass gives `failing_turn`, `failing_stage` and `error_code`; the overall score is the mean
 * of the turn scores; tool results are summed over the turns.
 */
export function finishConversation(card: Scorecard, state: CaseState, testCase: TestCase, config: EvaluationConfig): Scorecard {
  const turns = state.turns ?? [];
  const results: TurnResult[] = turns.map((turn, index) => {
    const verdict = decideVerdict(turn.stages, config.weights);
    return {
      index,
      passed: verdict.overall_passed,
      score: verdict.overall_score,
      ...(verdict.failing_stage ? { failing_stage: verdict.failing_stage } : {}),
      ...(verdict.error_code ? { error_code: verdict.error_code } : {}),
      stages: turn.stages,
      generated_tool_calls: turn.calls,
      generated_nl_response: turn.answer,
      ...(turn.trajectory ? { trajectory: turn.trajectory } : {}),
      input_tokens: turn.input_tokens,
      output_tokens: turn.output_tokens,
    };
  });
  const failing = results.find((r) => !r.passed);
  const passed = failing === undefined;
  const score = results.length ? Math.round((results.reduce((s, r) => s + r.score, 0) / results.length) * 1e6) / 1e6 : 0;
  const { failing_stage: _stage, error_code: _code, ...rest } = card;
  const verdict = {
    overall_passed: passed,
    ...(failing?.failing_stage ? { failing_stage: failing.failing_stage } : {}),
    ...(failing?.error_code ? { error_code: failing.error_code } : {}),
  };
  return {
    ...rest,
    ...verdict,
    ...(failing ? { failing_turn: failing.index } : {}),
    turns: results,
    tool_results: mergeToolResults(
      turns.map((t, i) => toolResultsOf(turnCaseOf(testCase, i), t.calls, t.stages.logic.details as LogicDetails | undefined)),
    ),
    overall_passed: passed,
    overall_score: score,
    outcome: outcomeKindOf({ ...verdict, stages: failing ? failing.stages : state.stages }),
  };
}

function mergeToolResults(perTurn: readonly ToolResult[][]): ToolResult[] {
  const byTool = new Map<string, ToolResult>();
  for (const results of perTurn) {
    for (const r of results) {
      const seen = byTool.get(r.tool_name);
      byTool.set(
        r.tool_name,
        seen
          ? {
              tool_name: r.tool_name,
              expected_calls: seen.expected_calls + r.expected_calls,
              actual_calls: seen.actual_calls + r.actual_calls,
              matched_calls: seen.matched_calls + r.matched_calls,
              passed: seen.passed && r.passed,
            }
          : r,
      );
    }
  }
  return [...byTool.values()].sort((a, b) => (a.tool_name < b.tool_name ? -1 : a.tool_name > b.tool_name ? 1 : 0));
}
