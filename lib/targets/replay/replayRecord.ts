import { TrajectorySchema } from '../../domain/index.js';
import type { TargetErrorCode, TargetInvocation, TargetTurnOutput } from '../../ports/index.js';

/**
 * One line of a replay outputs file:
 * `{"test_case_id", "output", "latency_ms"?, "input_tokens"?, "output_tokens"?, "cost_usd"?, "model"? | "client_version"?,
 *   "agent"?, "routing_reason"?, "api_calls_made"?, "error"?, "turns"?}`.
 * `turns` (a conversation case): the recorded answer of each turn, in order,
 * `[{"output", "input_tokens"?, "output_tokens"?, "trajectory"?}]`; `output` may then be left out (it is the last turn's).
 * `error` (a string, or `{ "code"?: "target_error" | "target_timeout", "message" }`) replays a failed invocation.
 */
type Fields = Record<string, unknown>;

const COUNTS = ['input_tokens', 'output_tokens', 'api_calls_made'] as const;

/**
 * Turns the recorded line of `testCaseId` into an invocation. Parses the line once and hands `output` over as
 * parsed (no copy, no re-serialisation: each call parses its own line, so callers may keep or mutate it).
 * A line that is not a JSON object, belongs to another case, or has a field of the wrong type is a target_error
 * naming the file and the field.
 */
export function invocationFromLine(line: string, testCaseId: string, file: string): TargetInvocation {
  const fail = (message: string, code: TargetErrorCode = 'target_error'): TargetInvocation => ({
    ok: false,
    error_code: code,
    message,
    latency_ms: 0,
    attempts: 1,
  });
  const where = `the recorded output of test case ${testCaseId} in ${file}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    return fail(`${where} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail(`${where} is not a JSON object`);
  const record = parsed as Fields;
  if (String(record.test_case_id) !== testCaseId) {
    return fail(`${where} is ambiguous: the line's test_case_id is ${JSON.stringify(record.test_case_id)}`);
  }
  const latency = nonNegative(record.latency_ms, false);
  if (latency === undefined) return fail(`${where}: latency_ms must be a non-negative number, got ${JSON.stringify(record.latency_ms)}`);
  if (record.error !== undefined && record.error !== null) {
    const failure = recordedFailure(record.error);
    if (!failure) return fail(`${where}: error must be a string or {"code", "message"}, got ${JSON.stringify(record.error)}`);
    return { ...fail(`recorded failure: ${failure.message}`, failure.code), latency_ms: latency };
  }
  const counts = [0, 0, 0];
  for (let i = 0; i < COUNTS.length; i++) {
    const name = COUNTS[i]!;
    const value = nonNegative(record[name], true);
    if (value === undefined) return fail(`${where}: ${name} must be a non-negative integer, got ${JSON.stringify(record[name])}`);
    counts[i] = value;
  }
  const cost = nonNegative(record.cost_usd, false);
  if (cost === undefined) return fail(`${where}: cost_usd must be a non-negative number, got ${JSON.stringify(record.cost_usd)}`);
  const version = record.model ?? record.client_version ?? null;
  if (version !== null && typeof version !== 'string') return fail(`${where}: model must be a string, got ${JSON.stringify(version)}`);
  let turns: TargetTurnOutput[] | undefined;
  if (record.turns !== undefined && record.turns !== null) {
    const read = recordedTurns(record.turns);
    if (typeof read === 'string') return fail(`${where}: ${read}`);
    turns = read;
  }
  const invocation: TargetInvocation = {
    ok: true,
    output: record.output ?? turns?.at(-1)?.output ?? null,
    latency_ms: latency,
    input_tokens: counts[0]!,
    output_tokens: counts[1]!,
    cost_usd: cost,
    client_version: version,
    api_calls_made: counts[2]!,
    attempts: 1,
  };
  if (typeof record.agent === 'string') invocation.agent = record.agent;
  if (typeof record.routing_reason === 'string') invocation.routing_reason = record.routing_reason;
  if (turns) invocation.turns = turns;
  return invocation;
}

/** The recorded turns of a conversation, or a sentence naming what is wrong. */
function recordedTurns(value: unknown): TargetTurnOutput[] | string {
  if (!Array.isArray(value) || value.length === 0)
    return `turns must be a non-empty list of {"output", ...}, got ${JSON.stringify(value)?.slice(0, 80)}`;
  const turns: TargetTurnOutput[] = [];
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return `turns[${i}] must be an object {"output", ...}`;
    const turn = item as Fields;
    const input = nonNegative(turn.input_tokens, true);
    const output = nonNegative(turn.output_tokens, true);
    if (input === undefined || output === undefined) return `turns[${i}]: input_tokens and output_tokens must be non-negative integers`;
    const read: TargetTurnOutput = { output: turn.output ?? null, input_tokens: input, output_tokens: output };
    if (turn.trajectory !== undefined) {
      const trajectory = TrajectorySchema.safeParse(turn.trajectory);
      if (!trajectory.success) return `turns[${i}].trajectory is not a trajectory (${trajectory.error.issues[0]?.message ?? 'invalid'})`;
      read.trajectory = trajectory.data;
    }
    turns.push(read);
  }
  return turns;
}

/** A missing or null field is 0; anything else must be a finite number >= 0 (an integer when `integer`). */
function nonNegative(value: unknown, integer: boolean): number | undefined {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  return integer && !Number.isInteger(value) ? undefined : value;
}

function recordedFailure(error: unknown): { code: TargetErrorCode; message: string } | undefined {
  if (typeof error === 'string') return { code: 'target_error', message: error };
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as Fields;
  if (typeof message !== 'string') return undefined;
  if (code !== undefined && code !== 'target_error' && code !== 'target_timeout') return undefined;
  return { code: code ?? 'target_error', message };
}
