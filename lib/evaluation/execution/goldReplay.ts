import { type JsonObject, type JsonValue, representativeValue, type TestCase } from '../../domain/index.js';
import { type SessionAnswer, startSession, UnknownEnvironmentError } from '../../environments/index.js';
import { resolveReference, substituteReferences, type CallOutcome } from '../logic/index.js';

/** The gold calls of a stateful case replayed on its initial state: each call's concrete arguments and answer, the final state. */
export interface GoldReplay {
  calls: Array<{ tool_name: string; arguments: JsonObject }>;
  answers: SessionAnswer[];
  state: JsonObject;
}

export type GoldReplayOutcome = { ok: true; replay: GoldReplay } | { ok: false; problem: string };

const replays = new WeakMap<TestCase, Map<number, GoldReplayOutcome>>();

/**
 * Replays a stateful case's `expected_tool_calls` (`callSet` -1) or `alternative_tool_calls[callSet]` in order on a fresh
 * instance of its environment (memoised per case object and set). Matchers become a representative value (`representativeValue`), `$from` references resolve against the
 * gold's own earlier results. The gold replays cleanly when every call answers 2xx, except the calls a scripted fault
 * hits. Otherwise (an unknown environment or initial state, a reference that does not resolve, a call the environment
 * rejects) the case is invalid, and `problem` says why.
 */
export function replayGold(testCase: TestCase, callSet = -1): GoldReplayOutcome {
  let bySet = replays.get(testCase);
  if (!bySet) replays.set(testCase, (bySet = new Map()));
  const cached = bySet.get(callSet);
  if (cached) return cached;
  const expectedCalls = callSet < 0 ? testCase.expected_tool_calls : testCase.alternative_tool_calls[callSet];
  const outcome: GoldReplayOutcome = expectedCalls
    ? computeReplay(testCase, expectedCalls, callSet < 0 ? 'gold' : `alternative call set ${callSet}:`)
    : { ok: false, problem: `case ${testCase.id} has no alternative call set ${callSet}` };
  bySet.set(callSet, outcome);
  return outcome;
}

function computeReplay(testCase: TestCase, expectedCalls: TestCase['expected_tool_calls'], label: string): GoldReplayOutcome {
  const environment = testCase.environment;
  if (!environment) return { ok: false, problem: `case ${testCase.id} names no environment` };
  let session;
  try {
    session = startSession(environment);
  } catch (error) {
    if (error instanceof UnknownEnvironmentError) return { ok: false, problem: error.message };
    throw error;
  }
  const calls: GoldReplay['calls'] = [];
  const answers: SessionAnswer[] = [];
  const outcomes: CallOutcome[] = [];
  for (const [i, expected] of expectedCalls.entries()) {
    const { args, refs } = substituteReferences(expected.arguments, (ref) => resolveReference(ref, i, calls, outcomes));
    const broken = refs.find((r) => !r.resolution.ok);
    if (broken) {
      const reason = broken.resolution.ok ? '' : broken.resolution.reason.replace('_', ' ');
      return {
        ok: false,
        problem: `${label} call #${i} ${expected.tool_name}: its $from reference to ${broken.ref.call} ${broken.ref.path} does not resolve (${reason})`,
      };
    }
    const call = { tool_name: expected.tool_name, arguments: representativeValue(args) as JsonObject };
    const answered = session.call(call.tool_name, call.arguments);
    calls.push(call);
    answers.push(answered);
    const ok = answered.answer.status >= 200 && answered.answer.status < 300;
    outcomes.push(ok ? { ok: true, result: answered.answer.data } : { ok: false });
    if (!ok && !answered.fault) {
      return {
        ok: false,
        problem: `${label} call #${i} ${expected.tool_name} ${JSON.stringify(call.arguments)} does not replay on ${environment.name}/${environment.initial_state}: ${answered.answer.status} ${describe(answered.answer.data)}`,
      };
    }
  }
  return { ok: true, replay: { calls, answers, state: session.state() } };
}

function describe(data: JsonValue): string {
  const message = typeof data === 'object' && data !== null && !Array.isArray(data) ? data['message'] : undefined;
  return typeof message === 'string' ? message : JSON.stringify(data);
}

/** Why a stateful case is invalid (its gold does not replay cleanly), or undefined for a valid or stateless case. */
export function invalidCaseReason(testCase: TestCase): string | undefined {
  if (!testCase.environment) return undefined;
  for (let set = -1; set < testCase.alternative_tool_calls.length; set++) {
    const outcome = replayGold(testCase, set);
    if (!outcome.ok) return outcome.problem;
  }
  return undefined;
}
