import {
  canonicalCallKey,
  canonicalJson,
  type Efficiency,
  efficiencyScore,
  type StageResult,
  type ToolCall,
  type Trajectory,
} from '../../domain/index.js';

/** What one answer (a case, or a turn of a conversation) contributes to the case's efficiency. */
export interface EfficiencyPart {
  /** the calls stage 1 read from the answer */
  calls: readonly ToolCall[];
  /** the agent's tool loop, when it ran one: calls with their results */
  trajectory?: Trajectory | undefined;
  /** the calls of the expected call set stage 2 matched */
  needed: number;
}

/**
 * The one notion of a redundant repeat (efficiencyOf counts them, withoutRedundantRepeats leaves them out of stage 2):
 * a call whose tool and arguments repeat an earlier call and whose result is the same (a model re-asking what it was
 * already told); without a trajectory the results are unknown and an identical repeated call counts. Calls are fed in
 * order, answer after answer (a conversation's turns share one tracker: a repeat may span turns).
 */
class RepeatTracker {
  private readonly seen = new Map<string, Set<string>>();

  /** Feeds one answer's calls; returns how many redundant repeats of each call key it made. */
  add(calls: readonly ToolCall[], trajectory: Trajectory | undefined): Map<string, number> {
    const repeats = new Map<string, number>();
    const feed = (key: string, result: string): void => {
      const results = this.seen.get(key);
      if (results?.has(result)) repeats.set(key, (repeats.get(key) ?? 0) + 1);
      else if (results) results.add(result);
      else this.seen.set(key, new Set([result]));
    };
    if (trajectory) {
      for (const step of trajectory.steps) {
        if (step.kind !== 'tool_call' || !step.executed || step.arguments === null) continue;
        const outcome = step.ok ? canonicalJson(step.result ?? null) : `error:${step.status ?? ''}:${step.error ?? ''}`;
        feed(canonicalCallKey({ tool_name: step.tool_name, arguments: step.arguments }), outcome);
      }
    } else {
      for (const call of calls) feed(canonicalCallKey(call), '');
    }
    return repeats;
  }
}

/**
 * The efficiency of a case from its answers (one per turn of a conversation, in order): calls made (every call of
 * the trajectory, executed or not; else the calls read from the output), calls needed, redundant calls (RepeatTracker,
 * over the whole case), model turns and tokens. Pure and deterministic.
 */
export function efficiencyOf(parts: readonly EfficiencyPart[], tokens: number): Efficiency {
  let made = 0;
  let needed = 0;
  let redundant = 0;
  let modelTurns = 0;
  let tracker: RepeatTracker | undefined; // made when a call may repeat (not in the usual case)
  for (const part of parts) {
    needed += part.needed;
    modelTurns += part.trajectory ? part.trajectory.turns : 1;
    made += part.trajectory ? part.trajectory.steps.filter((s) => s.kind === 'tool_call').length : part.calls.length;
    // in one answer without a trajectory only a call with a same-tool call whose arguments may equal its own can
    // repeat: canonical keys are built for those alone (none in the usual case)
    const calls = parts.length === 1 && !part.trajectory ? possibleRepeats(part.calls) : part.calls;
    if (calls.length === 0 && !part.trajectory) continue;
    for (const n of (tracker ??= new RepeatTracker()).add(calls, part.trajectory).values()) redundant += n;
  }
  return {
    calls_made: made,
    calls_needed: needed,
    redundant_calls: redundant,
    model_turns: modelTurns,
    conversation_turns: Math.max(1, parts.length),
    tokens,
    score: efficiencyScore(made, needed),
  };
}

/**
 * The calls that may repeat another call of the answer, in order (the same array when every call qualifies): those
 * with another call of the same tool whose arguments are not surely different. Only these need canonical keys.
 */
function possibleRepeats(calls: readonly ToolCall[]): readonly ToolCall[] {
  let kept: ToolCall[] | undefined;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    let possible = false;
    for (let j = 0; j < calls.length && !possible; j++) {
      const other = calls[j]!;
      possible = j !== i && other.tool_name === call.tool_name && !surelyDifferentArguments(call.arguments, other.arguments);
    }
    if (possible) (kept ??= []).push(call);
  }
  return kept === undefined ? [] : kept.length === calls.length ? calls : kept;
}

/**
 * A cheap sufficient test for different canonical keys: some argument present in both holds two strings, two
 * booleans or two finite numbers that differ (their JSON texts differ). Anything else is left to the canonical keys.
 */
export function surelyDifferentArguments(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  for (const key in a) {
    if (!Object.prototype.hasOwnProperty.call(a, key) || !Object.prototype.hasOwnProperty.call(b, key)) continue;
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (typeof x === 'string' && typeof y === 'string') return true;
    if (typeof x === 'boolean' && typeof y === 'boolean') return true;
    if (typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y)) return true;
  }
  return false;
}

/**
 * The run option `fail_on_redundant_calls`: a logic stage that passed fails with `redundant_call` when the case made
 * a redundant call (its score is kept: the calls were right, only repeated). Anything else is returned as is.
 */
export function withRedundancyRule(logic: StageResult, efficiency: Efficiency, failOnRedundant: boolean): StageResult {
  if (!failOnRedundant || efficiency.redundant_calls === 0 || logic.status !== 'passed') return logic;
  const n = efficiency.redundant_calls;
  return {
    ...logic,
    status: 'failed',
    passed: false,
    error_code: 'redundant_call',
    message: `${n} redundant call${n === 1 ? '' : 's'}: the same call with the same arguments got the same result again (the run sets fail_on_redundant_calls)`,
  };
}

/**
 * The calls stage 2 compares when redundant calls are not to fail the case (`fail_on_redundant_calls` off, the
 * default): each redundant repeat (as `efficiencyOf` counts them: same tool, same arguments, same result as an earlier
 * call; without a trajectory, an identical call) is left out, the last occurrences of its call first, so a model that
 * re-asks what it was told loses efficiency, not correctness. `originalIndex[i]` is the position in `calls` of the
 * i-th kept call (to map stage 2's assignment back).
 */
export function withoutRedundantRepeats(
  calls: readonly ToolCall[],
  trajectory: Trajectory | undefined,
): { calls: ToolCall[]; originalIndex: number[] } {
  const repeats = new RepeatTracker().add(calls, trajectory);
  if (repeats.size === 0) return { calls: [...calls], originalIndex: calls.map((_, i) => i) };
  const drop = new Set<number>();
  for (let i = calls.length - 1; i >= 0; i--) {
    const key = canonicalCallKey(calls[i]!);
    const left = repeats.get(key) ?? 0;
    if (left > 0) {
      drop.add(i);
      repeats.set(key, left - 1);
    }
  }
  const originalIndex = calls.map((_, i) => i).filter((i) => !drop.has(i));
  return { calls: originalIndex.map((i) => calls[i]!), originalIndex };
}
