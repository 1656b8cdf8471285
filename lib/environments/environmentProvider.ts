import type { TestCase, ToolCall } from '../domain/index.js';
import type { ApiProvider, ApiResponse, ExecuteContext } from '../ports/index.js';
import { type EnvironmentSession, type SessionAnswer, startSession } from './session.js';

/**
 * The stage-3 provider `environment`: a case's calls run on its stateful environment (`testCase.environment`). A tool
 * loop opens one session per conversation (`openSession`: a fresh instance from the case's initial state, with its
 * scripted failures), so the calls of one conversation see each other's changes and no other conversation's. A
 * conversation case opens it once for all its turns (lib/targets conversationLoop), so turn 2 sees what turn 1 did and
 * scripted faults count the calls of the whole conversation; `openSession` on a session returns that session (the
 * turn's tool loop asks again and must get the conversation's). `execute` without a session runs the call on a fresh
 * instance of its own. A case without an environment is refused per call (`no_recording`, naming the case), never
 * thrown: the case is not stateful, there is nothing to run it on.
 */
export class EnvironmentApiProvider implements ApiProvider {
  readonly kind = 'environment' as const;

  constructor(private readonly session?: EnvironmentSession) {}

  openSession(context: Pick<ExecuteContext, 'testCase'>): ApiProvider {
    if (this.session) return this; // already one conversation's session
    const environment = context.testCase.environment;
    return environment ? new EnvironmentApiProvider(startSession(environment)) : this;
  }

  async execute(call: ToolCall, context: ExecuteContext): Promise<ApiResponse> {
    context.abortSignal?.throwIfAborted();
    const started = performance.now();
    const session = this.session ?? sessionFor(context.testCase);
    if (!session) {
      return {
        ok: false,
        errorCode: 'no_recording',
        message: `case ${context.testCase.id} names no environment, so the environment provider has nothing to run ${call.tool_name} on`,
        durationMs: msSince(started),
      };
    }
    return toApiResponse(call.tool_name, session.call(call.tool_name, call.arguments), msSince(started));
  }
}

function sessionFor(testCase: TestCase): EnvironmentSession | undefined {
  return testCase.environment ? startSession(testCase.environment) : undefined;
}

/** An environment's answer as stage 3 sees an API's: 2xx data, else `execution_failed` with the status (scripted ones flagged). */
export function toApiResponse(tool: string, { answer, fault }: SessionAnswer, durationMs: number): ApiResponse {
  if (answer.status >= 200 && answer.status < 300) return { ok: true, status: answer.status, data: answer.data, durationMs };
  const body = answer.data as { error?: unknown; message?: unknown } | null;
  const why = typeof body?.message === 'string' ? body.message : JSON.stringify(answer.data);
  return {
    ok: false,
    errorCode: 'execution_failed',
    status: answer.status,
    message: `${tool} answered ${answer.status}: ${why}${fault ? ' (a failure the case scripted)' : ''}`,
    durationMs,
    ...(fault ? { scripted: true } : {}),
  };
}

function msSince(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}
