import { type JsonObject, type JsonValue, representativeValue, type TestCase } from '../../domain/index.js';
import { type SessionAnswer, startSession, UnknownEnvironmentError } from '../../environments/index.js';
import { resolveReference, substituteReferences, type CallOutcome } from '../logic/index.js';

/** The gold calls of a stateful case replayed on its initial state: each call's concrete arguments and answer, the final state. */
export interface GoldReplay {
  calls: Array<{ tool_name: string; arguments: JsonObject }>;
  answers: SessionAnswer[];
  state: JsonObject;
  /** a conversation's replay (replayConversationGold): where each replayed turn's calls start in `calls` */
  turn_starts?: number[];
}

export type GoldReplayOutcome = { ok: true; replay: GoldReplay } | { ok: false; problem: string };

/** One run of gold calls in a replay: a single case's call set, or one turn of a conversation. */
interface Segment {
  calls: TestCase['expected_tool_calls'];
  /** prefixes the problem ("gold", "turn 2 of 3: gold", ...) */
  label: string;
}

const replays = new WeakMap<TestCase, Map<string, GoldReplayOutcome>>();

function memo(testCase: TestCase, key: string, compute: () => GoldReplayOutcome): GoldReplayOutcome {
  let byKey = replays.get(testCase);
  if (!byKey) replays.set(testCase, (byKey = new Map()));
  const cached = byKey.get(key);
  if (cached) return cached;
  const outcome = compute();
  byKey.set(key, outcome);
  return outcome;
}

/**
 * Replays a stateful case's `expected_tool_calls` (`callSet` -1) or `alternative_tool_calls[callSet]` in order on a fresh
 * instance of its environment (memoised per case object and set). Matchers become a representative value (`representativeValue`), `$from` references resolve against the
 * gold's own earlier results. The gold replays cleanly when every call answers 2xx, except the calls a scripted fault
 * hits. Otherwise (an unknown environment or initial state, a reference that does not resolve, a call the environment
 * rejects) the case is invalid, and `problem` says why.
 */
export function replayGold(testCase: TestCase, callSet = -1): GoldReplayOutcome {
  return memo(testCase, String(callSet), () => {
    const expectedCalls = callSet < 0 ? testCase.expected_tool_calls : testCase.alternative_tool_calls[callSet];
    return expectedCalls
      ? computeReplay(testCase, [{ calls: expectedCalls, label: callSet < 0 ? 'gold' : `alternative call set ${callSet}:` }])
      : { ok: false, problem: `case ${testCase.id} has no alternative call set ${callSet}` };
  });
}

/**
 * The cumulative gold of a conversation up to turn `upTo` (0-based), as BFCL v3 multi-turn replays it: the gold calls of
 * turns 0..upTo in order on ONE session from the case's initial state (so turn 3's gold runs on the state turns 1-2
 * left, and scripted faults count calls over the conversation). Turn k replays the call set `callSets[k]` (-1 =
 * its `expected_tool_calls`, else its `alternative_tool_calls[k]`; missing = -1): stage 3 passes the sets stage 2
 * matched, so an agent that took an accepted alternative path is compared with that path. `$from` references resolve
 * within their turn (as stage 2 checks them). `turn_starts[k]` is where turn k's calls start. Memoised per case
 * object and call sets.
 */
export function replayConversationGold(testCase: TestCase, upTo: number, callSets: readonly number[] = []): GoldReplayOutcome {
  const turns = testCase.turns ?? [];
  if (upTo < 0 || upTo >= turns.length) return { ok: false, problem: `case ${testCase.id} has no turn ${upTo + 1}` };
  const sets = turns.slice(0, upTo + 1).map((_, k) => callSets[k] ?? -1);
  return memo(testCase, `turns:${sets.join(',')}`, () => {
    const segments: Segment[] = [];
    for (const [k, set] of sets.entries()) {
      const turn = turns[k]!;
      const calls = set < 0 ? turn.expected_tool_calls : turn.alternative_tool_calls[set];
      const where = `turn ${k + 1} of ${turns.length}:`;
      if (!calls) return { ok: false, problem: `${where} case ${testCase.id} has no alternative call set ${set} in that turn` };
      const after = k === 0 ? '' : ` (after the gold of turn${k === 1 ? ' 1' : `s 1-${k}`})`;
      segments.push({ calls, label: `${where} ${set < 0 ? 'gold' : `alternative call set ${set}:`}${after}` });
    }
    return computeReplay(testCase, segments);
  });
}

function computeReplay(testCase: TestCase, segments: readonly Segment[]): GoldReplayOutcome {
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
  const starts: number[] = [];
  for (const { calls: expectedCalls, label } of segments) {
    starts.push(calls.length);
    const mine: GoldReplay['calls'] = [];
    const outcomes: CallOutcome[] = [];
    for (const [i, expected] of expectedCalls.entries()) {
      const { args, refs } = substituteReferences(expected.arguments, (ref) => resolveReference(ref, i, mine, outcomes));
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
      mine.push(call);
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
  }
  const replay: GoldReplay = { calls, answers, state: session.state() };
  return { ok: true, replay: segments.length > 1 || testCase.turns?.length ? { ...replay, turn_starts: starts } : replay };
}

function describe(data: JsonValue): string {
  const message = typeof data === 'object' && data !== null && !Array.isArray(data) ? data['message'] : undefined;
  return typeof message === 'string' ? message : JSON.stringify(data);
}

/**
 * Why a stateful case is invalid (its gold does not replay cleanly), or undefined for a valid or stateless case. A
 * conversation's gold is replayed cumulatively (replayConversationGold): every turn's expected calls in order on one
 * session, then each turn's alternative call sets after the expected calls of the turns before it; the problem names
 * the turn ("turn 3 of 3: gold (after the gold of turns 1-2) call #0 ...").
 */
export function invalidCaseReason(testCase: TestCase): string | undefined {
  if (!testCase.environment) return undefined;
  const turns = testCase.turns ?? [];
  if (turns.length > 0) {
    const main = replayConversationGold(testCase, turns.length - 1);
    if (!main.ok) return main.problem;
    for (const [k, turn] of turns.entries()) {
      for (let set = 0; set < turn.alternative_tool_calls.length; set++) {
        const outcome = replayConversationGold(testCase, k, [...Array<number>(k).fill(-1), set]);
        if (!outcome.ok) return outcome.problem;
      }
    }
    return undefined;
  }
  for (let set = -1; set < testCase.alternative_tool_calls.length; set++) {
    const outcome = replayGold(testCase, set);
    if (!outcome.ok) return outcome.problem;
  }
  return undefined;
}
