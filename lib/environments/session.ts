import type { CaseEnvironment, JsonObject, JsonValue, ScriptedFault } from '../domain/index.js';
import type { EnvironmentAnswer, EnvironmentInstance } from './environment.js';
import { startEnvironment } from './registry.js';

export interface SessionAnswer {
  answer: EnvironmentAnswer;
  /** the scripted failure served instead of running the call */
  fault?: ScriptedFault;
}

/**
 * One conversation with an environment: a fresh instance from the case's initial state plus the case's scripted
 * failures. Calls are counted overall and per tool; a fault names the `occurrence`-th call (of its `tool`, or of any
 * tool) and is served instead of running the call, so it never changes the state.
 */
export class EnvironmentSession {
  private total = 0;
  private readonly perTool = new Map<string, number>();

  constructor(
    readonly instance: EnvironmentInstance,
    private readonly faults: readonly ScriptedFault[] = [],
  ) {}

  call(tool: string, args: JsonObject): SessionAnswer {
    this.total++;
    const n = (this.perTool.get(tool) ?? 0) + 1;
    this.perTool.set(tool, n);
    const fault = this.faults.find((f) => (f.tool === undefined ? f.occurrence === this.total : f.tool === tool && f.occurrence === n));
    if (fault) return { answer: faultAnswer(fault, tool), fault };
    return { answer: this.instance.call(tool, args) };
  }

  state(): JsonObject {
    return this.instance.state();
  }
}

/** A session on the environment a case names (throws UnknownEnvironmentError for an unknown name or state). */
export function startSession(environment: CaseEnvironment): EnvironmentSession {
  return new EnvironmentSession(startEnvironment(environment.name, environment.initial_state), environment.faults);
}

function faultAnswer(fault: ScriptedFault, tool: string): EnvironmentAnswer {
  switch (fault.kind) {
    case 'empty':
      return { status: 200, data: (fault.data ?? []) as JsonValue };
    case 'timeout':
      return { status: fault.status ?? 504, data: { error: 'timeout', message: fault.message ?? `${tool} timed out` } };
    case 'error':
      return {
        status: fault.status ?? 503,
        data: { error: 'unavailable', message: fault.message ?? `${tool} is temporarily unavailable` },
      };
  }
}

/** Replays calls in order on a fresh session: what each answered and the final state. */
export function replayCalls(
  environment: CaseEnvironment,
  calls: ReadonlyArray<{ tool_name: string; arguments: JsonObject }>,
): { answers: SessionAnswer[]; state: JsonObject } {
  const session = startSession(environment);
  const answers = calls.map((call) => session.call(call.tool_name, call.arguments));
  return { answers, state: session.state() };
}
