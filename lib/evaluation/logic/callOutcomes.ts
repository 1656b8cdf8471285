import type { JsonValue, ToolCall, Trajectory } from '../../domain/index.js';
import { replayCalls } from '../../environments/index.js';
import type { TestCase } from '../../domain/index.js';

/** What one actual call returned, as the agent saw it: its result, or that it failed. */
export interface CallOutcome {
  ok: boolean;
  result?: JsonValue;
}

/** Per actual call (by index in the parsed calls), its outcome; undefined where it is not known (a call not executed). */
export type CallOutcomes = ReadonlyArray<CallOutcome | undefined>;

/**
 * The outcomes of the parsed calls: from the trajectory when the agent ran a tool loop (what it really saw: the
 * i-th call step answers the i-th call, or steps are paired in order by tool name when the counts differ), else, for a
 * stateful case, by replaying the calls in order on a fresh instance of its environment (deterministic, so the same
 * answers the agent would have had; a conversation turn replays the calls the agent executed in the earlier turns
 * first, `before`, as its session carried them). Undefined when neither is available (a recorded output of a stateless case).
 */
export function callOutcomesOf(
  calls: readonly ToolCall[],
  testCase: TestCase,
  trajectory?: Trajectory,
  before: readonly ToolCall[] = [],
): CallOutcomes | undefined {
  if (trajectory) {
    const steps = trajectory.steps.filter((s) => s.kind === 'tool_call');
    const out: Array<CallOutcome | undefined> = new Array(calls.length).fill(undefined);
    let next = 0;
    calls.forEach((call, i) => {
      const at = steps.length === calls.length ? i : steps.findIndex((s, j) => j >= next && s.tool_name === call.tool_name);
      const step = at < 0 ? undefined : steps[at];
      if (!step || step.tool_name !== call.tool_name) return;
      next = at + 1;
      if (!step.executed) return;
      out[i] = step.ok ? { ok: true, result: step.result ?? null } : { ok: false };
    });
    return out;
  }
  if (!testCase.environment) return undefined;
  try {
    // a conversation turn: on the state the earlier turns' executed calls left (one session per conversation)
    const { answers } = replayCalls(testCase.environment, [...before, ...calls]);
    return answers
      .slice(before.length)
      .map(({ answer }) => (answer.status >= 200 && answer.status < 300 ? { ok: true, result: answer.data } : { ok: false }));
  } catch {
    return undefined; // an unknown environment: the case is reported invalid before scoring
  }
}
