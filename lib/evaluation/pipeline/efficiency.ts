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
 * The efficiency of a case from its answers (one per turn of a conversation, in order): calls made (every call of
 * the trajectory, executed or not; else the calls read from the output), calls needed, redundant calls (a call whose
 * tool and arguments repeat an earlier call of the case and whose result is the same: a model re-asking what it was
 * already told; without a trajectory the results are unknown and an identical repeated call counts), model turns and
 * tokens. Pure and deterministic.
 */
export function efficiencyOf(parts: readonly EfficiencyPart[], tokens: number): Efficiency {
  let made = 0;
  let needed = 0;
  let redundant = 0;
  let modelTurns = 0;
  const seen = new Map<string, Set<string>>();
  const repeat = (key: string, result: string): boolean => {
    const results = seen.get(key);
    if (results?.has(result)) return true;
    if (results) results.add(result);
    else seen.set(key, new Set([result]));
    return false;
  };
  for (const part of parts) {
    needed += part.needed;
    if (part.trajectory) {
      modelTurns += part.trajectory.turns;
      for (const step of part.trajectory.steps) {
        if (step.kind !== 'tool_call') continue;
        made++;
        if (!step.executed || step.arguments === null) continue;
        const outcome = step.ok ? canonicalJson(step.result ?? null) : `error:${step.status ?? ''}:${step.error ?? ''}`;
        if (repeat(canonicalCallKey({ tool_name: step.tool_name, arguments: step.arguments }), outcome)) redundant++;
      }
    } else {
      modelTurns += 1;
      made += part.calls.length;
      for (const call of part.calls) if (repeat(canonicalCallKey(call), '')) redundant++;
    }
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
