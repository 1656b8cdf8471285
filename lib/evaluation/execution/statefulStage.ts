import type { DiffEntry, JsonValue, StageResult, TestCase, ToolCall, Trajectory } from '../../domain/index.js';
import { replayCalls } from '../../environments/index.js';
import { compareData } from '../match/index.js';
import { elapsedMs } from '../../ports/index.js';
import { replayConversationGold, replayGold } from './goldReplay.js';
import { describeDiffEntry } from './executionDetails.js';

/** Stage 3's detail for a stateful case: the state diff and the per-call result diffs. */
export interface StatefulDetails {
  environment: string;
  initial_state: string;
  ignore_paths: string[];
  /** gold calls replayed (a conversation turn: those of turns 1..i) */
  gold_calls: number;
  /** agent calls replayed (a conversation turn: the executed calls of turns 1..i) */
  agent_calls: number;
  /** a conversation turn (0-based): the state compared is the one turns 1..turn+1 left */
  turn?: number;
  state: { passed: boolean; score: number; entries: DiffEntry[] };
  results: Array<{
    expected_index: number;
    actual_index: number | null;
    tool_name: string;
    status: 'matched' | 'mismatch' | 'missing';
    entries: DiffEntry[];
  }>;
}

export interface StatefulStageOutput {
  result: StageResult;
  /** calls replayed on the environment (the agent's and the gold's) */
  api_calls_made: number;
  /** what the scored calls returned on the replayed state (tool, status, data): the data a judge may check the answer against */
  responses: Array<{ tool_name: string; status: number; data: JsonValue }>;
}

/** One earlier turn of a conversation, as stage 2 left it: its parsed calls, its tool loop, the call set it matched. */
export interface EarlierTurn {
  calls: readonly ToolCall[];
  trajectory?: Trajectory | undefined;
  call_set: number;
}

/** Stage 3 of turn `turn` of a conversation: the whole case and the turns before it. */
export interface ConversationTurnContext {
  /** the conversation case (with its `turns`) */
  testCase: TestCase;
  turn: number;
  earlier: readonly EarlierTurn[];
}

const MAX_SHOWN = 3;

/**
 * Stage 3 for a stateful case (`testCase.environment`): the agent's executed calls run in order on a fresh instance from
 * the initial state (the environment is deterministic, so this is the state the agent's own conversation left), the
 * gold calls on another (replayGold). Passes when the final states are equal (compareData: numbers within the relative
 * tolerance, `environment.ignore_paths` skipped; collections keyed by id, so work done in another order on different
 * records compares equal) and, with `compare_results`, each expected call's matched call returned what the gold call
 * returned (against the call set stage 2 matched: `expected_tool_calls`, or the alternative set). Score = mean of the state score and the results score. Error code `state_mismatch` when the state differs,
 * else `data_mismatch`. A case whose gold does not replay is `error`/`invalid_case` (not scored; normally caught before).
 *
 * A conversation turn (`options.conversation`, `testCase` = that turn's case) compares CUMULATIVE state, as BFCL v3
 * multi-turn does: the agent's executed calls of turns 1..i replayed on one session from the initial state against
 * the gold of turns 1..i (each earlier turn with the call set stage 2 matched in it, replayConversationGold), and the
 * results of turn i's expected calls as the gold sees them after the earlier turns (so "what is its status now?"
 * expects the status the earlier turns left). Scripted faults count the calls of the whole conversation.
 */
export function runStatefulStage(
  testCase: TestCase,
  calls: readonly ToolCall[],
  assignment: ReadonlyArray<{ expected_index: number; actual_index: number }>,
  options: { callSet?: number; relativeTolerance?: number; trajectory?: Trajectory; conversation?: ConversationTurnContext } = {},
): StatefulStageOutput {
  const started = performance.now();
  const environment = testCase.environment!;
  const callSet = options.callSet ?? -1;
  const turn = options.conversation;
  // the call set stage 2 matched: an alternative may leave another state
  const gold = turn
    ? replayConversationGold(turn.testCase, turn.turn, [...turn.earlier.map((t) => t.call_set), callSet])
    : replayGold(testCase, callSet);
  if (!gold.ok) {
    return {
      result: {
        stage: 'execution',
        status: 'error',
        passed: false,
        score: null,
        error_code: 'invalid_case',
        message: gold.problem,
        duration_ms: elapsedMs(started),
      },
      api_calls_made: 0,
      responses: [],
    };
  }
  const goldStart = turn ? (gold.replay.turn_starts?.[turn.turn] ?? 0) : 0;
  const goldAnswers = gold.replay.answers.slice(goldStart);
  const goldCalls = gold.replay.calls.slice(goldStart);
  const before = (turn?.earlier ?? []).flatMap((t) => executedIndices(t.calls, t.trajectory).map((i) => t.calls[i]!));
  const executed = executedIndices(calls, options.trajectory);
  const agent = replayCalls(environment, [...before, ...executed.map((i) => calls[i]!)]);
  const answerOf = new Map(executed.map((actual, k) => [actual, agent.answers[before.length + k]!]));
  const compare = { relativeTolerance: options.relativeTolerance ?? 0.0001, ignorePaths: environment.ignore_paths };
  const state = compareData(gold.replay.state, agent.state, compare);

  const results: StatefulDetails['results'] = [];
  if (environment.compare_results) {
    const actualFor = new Map(assignment.map((p) => [p.expected_index, p.actual_index]));
    goldAnswers.forEach((goldAnswer, e) => {
      const tool_name = goldCalls[e]!.tool_name;
      const a = actualFor.get(e);
      const got = a === undefined ? undefined : answerOf.get(a);
      if (a === undefined || got === undefined) {
        results.push({
          expected_index: e,
          actual_index: a ?? null,
          tool_name,
          status: 'missing',
          entries: [{ path: '', kind: 'missing', message: `${tool_name} (gold call #${e}) was not made, so it returned nothing` }],
        });
        return;
      }
      const match = compareData(bodyOf(goldAnswer.answer), bodyOf(got.answer), { relativeTolerance: compare.relativeTolerance });
      results.push({
        expected_index: e,
        actual_index: a,
        tool_name,
        status: match.passed ? 'matched' : 'mismatch',
        entries: match.entries,
      });
    });
  }
  const resultsPassed = results.every((r) => r.status === 'matched');
  const resultsScore = results.length === 0 ? 1 : results.filter((r) => r.status === 'matched').length / results.length;
  const details: StatefulDetails = {
    environment: environment.name,
    initial_state: environment.initial_state,
    ignore_paths: environment.ignore_paths,
    gold_calls: gold.replay.calls.length,
    agent_calls: before.length + executed.length,
    ...(turn ? { turn: turn.turn } : {}),
    state: { passed: state.passed, score: state.score, entries: state.entries },
    results,
  };
  const base = { stage: 'execution' as const, details, duration_ms: elapsedMs(started) };
  const api_calls_made = gold.replay.calls.length + before.length + executed.length;
  const responses = executed.map((i) => ({ tool_name: calls[i]!.tool_name, ...answerOf.get(i)!.answer }));
  const which = !turn
    ? `final ${environment.name} state`
    : `${environment.name} state after turn ${turn.turn + 1}${turn.turn > 0 ? ` (turns 1-${turn.turn + 1} replayed)` : ''}`;
  if (state.passed && resultsPassed) {
    const message = `The ${which} equals the gold's${results.length ? ` and the ${results.length} expected calls returned what the gold's did` : ''}.`;
    return { result: { ...base, status: 'passed', passed: true, score: 1, message }, api_calls_made, responses };
  }
  const score = (state.score + resultsScore) / 2;
  const parts: string[] = [];
  const problems = state.entries.filter((e) => e.kind !== 'coerced');
  if (!state.passed) {
    const shown = problems
      .slice(0, MAX_SHOWN)
      .map((e) => `${e.path || '/'} ${describeDiffEntry(e)}`)
      .join('; ');
    parts.push(
      `${turn ? `state after turn ${turn.turn + 1}` : 'final state'} differs from the gold's at ${problems.length} path${problems.length === 1 ? '' : 's'}: ${shown}${problems.length > MAX_SHOWN ? '; …' : ''}`,
    );
  }
  const wrong = results.filter((r) => r.status !== 'matched');
  if (wrong.length > 0) {
    parts.push(
      `${wrong.length} expected call${wrong.length === 1 ? '' : 's'} returned other results than the gold's: ${wrong
        .slice(0, MAX_SHOWN)
        .map(
          (r) =>
            `${r.tool_name} ${r.entries
              .slice(0, 1)
              .map((e) => `${e.path || '/'} ${describeDiffEntry(e)}`)
              .join('')}`,
        )
        .join('; ')}`,
    );
  }
  return {
    result: {
      ...base,
      status: 'failed',
      passed: false,
      score,
      error_code: state.passed ? 'data_mismatch' : 'state_mismatch',
      message: parts.join('; '),
    },
    api_calls_made,
    responses,
  };
}

/** A 2xx answer's data; an error answer as `{status, error}` so an error where the gold succeeded is a mismatch. */
function bodyOf(answer: { status: number; data: JsonValue }): JsonValue {
  return answer.status >= 200 && answer.status < 300 ? answer.data : { status: answer.status, error: answer.data };
}

/** The indices of the parsed calls that were executed (the trajectory's executed call steps, else all of them). */
function executedIndices(calls: readonly ToolCall[], trajectory?: Trajectory): number[] {
  const all = calls.map((_, i) => i);
  if (!trajectory) return all;
  const steps = trajectory.steps.filter((s) => s.kind === 'tool_call');
  if (steps.length !== calls.length) return all;
  return all.filter((i) => steps[i]!.executed);
}
