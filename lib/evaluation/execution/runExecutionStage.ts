import type { StageResult, TestCase, ToolCall } from '../../domain/index.js';
import { compareData } from '../match/index.js';
import { type ApiProvider, elapsedMs, ExecutionConfigurationError, failureBlamesCall } from '../../ports/index.js';
import { mapWithConcurrency } from './concurrency.js';
import { describeProblems, formatPercent, type ExecutedCall, type ExecutionCallDetail, type ExecutionDetails } from './executionDetails.js';

export const DEFAULT_RELATIVE_TOLERANCE = 0.0001;
export const DEFAULT_MAX_CONCURRENCY = 4;

export interface ExecutionStageOptions {
  provider: ApiProvider;
  /** the run's relative tolerance (default 0.0001 = 0.01%); the case's execution.relative_tolerance wins */
  relativeTolerance?: number;
  abortSignal?: AbortSignal;
  /** per-call timeout handed to the provider */
  timeoutInMs?: number;
  /** calls of one case executed at once (default 4) */
  maxConcurrency?: number;
  /** the call set stage 2 matched: -1 = expected_tool_calls (default), i >= 0 = alternative_tool_calls[i] */
  callSet?: number;
}

/** Stage 2's pairing of expected and actual calls; pairs with a null side are ignored (CallDiff[] fits). */
export interface CallAssignment {
  expected_index: number | null;
  actual_index: number | null;
}

export interface ExecutionStageOutput {
  result: StageResult;
  /** calls handed to the provider (replayed ones included) */
  api_calls_made: number;
  responses: ExecutedCall[];
}

/**
 * Stage 3: executes each actual call that stage 2 matched to an expected call and compares what it returns with
 * `expected_raw_data[expected_index]` (compareData: numbers within the relative tolerance, `$range`, the case's
 * ignore_paths). Unmatched actual calls are not executed; expected calls with no matched call count as missing.
 * - no expected_raw_data (or stage 2 matched an alternative call set, which expected_raw_data does not cover):
 *   `skipped`, no_expected_data, score null;
 * - any call that could not be scored (network, timeout, 5xx, 408/429, no recording): `error`, score null;
 * - otherwise score = mean of the per-call scores over the expected calls, and `passed` when every expected
 *   call returned matching data; a failure's code is execution_failed when the API rejected a call (4xx),
 *   else data_mismatch.
 * Throws only for broken configuration and when the abortSignal fires.
 */
export async function runExecutionStage(
  calls: readonly ToolCall[],
  testCase: TestCase,
  assignment: readonly CallAssignment[],
  options: ExecutionStageOptions,
): Promise<ExecutionStageOutput> {
  const started = performance.now();
  const maxConcurrency = options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
  if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1) {
    throw new ExecutionConfigurationError(`execution stage: maxConcurrency must be a positive integer, got ${maxConcurrency}`);
  }
  const expectedData = testCase.expected_raw_data ?? [];
  if (expectedData.length === 0) return skipped(started, `case ${testCase.id} has no expected_raw_data to compare with`);
  const callSet = options.callSet ?? -1;
  if (callSet >= 0) {
    return skipped(started, `stage 2 matched alternative call set ${callSet}; expected_raw_data is aligned with expected_tool_calls only`);
  }
  const relativeTolerance = testCase.execution?.relative_tolerance ?? options.relativeTolerance ?? DEFAULT_RELATIVE_TOLERANCE;
  const ignorePaths = testCase.execution?.ignore_paths ?? [];
  const actualFor = actualIndexByExpected(expectedData.length, calls.length, assignment);

  const outcomes = await mapWithConcurrency(expectedData, maxConcurrency, async (expected, index) => {
    const actualIndex = actualFor[index];
    const call = actualIndex === undefined ? undefined : calls[actualIndex];
    if (actualIndex === undefined || !call) return { detail: missingCall(index, testCase) };
    const response = await options.provider.execute(call, {
      testCase,
      expectedIndex: index,
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      ...(options.timeoutInMs === undefined ? {} : { timeoutInMs: options.timeoutInMs }),
    });
    const executed: ExecutedCall = { expected_index: index, actual_index: actualIndex, tool_name: call.tool_name, response };
    const base = { expected_index: index, actual_index: actualIndex, tool_name: call.tool_name, duration_ms: response.durationMs };
    if (!response.ok) {
      const detail: ExecutionCallDetail = {
        ...base,
        status: 'failed',
        score: failureBlamesCall(response) ? 0 : null,
        entries: [],
        error_code: response.errorCode,
        ...(response.status === undefined ? {} : { http_status: response.status }),
        message: response.message,
      };
      return { detail, executed };
    }
    const match = compareData(expected, response.data, { relativeTolerance, ignorePaths });
    const detail: ExecutionCallDetail = {
      ...base,
      status: match.passed ? 'matched' : 'mismatch',
      score: match.score,
      entries: match.entries,
    };
    return { detail, executed };
  });

  const details = outcomes.map((o) => o.detail);
  const responses = outcomes.flatMap((o) => (o.executed ? [o.executed] : []));
  const stageDetails: ExecutionDetails = { relative_tolerance: relativeTolerance, ignore_paths: ignorePaths, calls: details };
  const result = verdict(details, stageDetails, relativeTolerance, elapsedMs(started));
  return { result, api_calls_made: responses.length, responses };
}

function verdict(details: ExecutionCallDetail[], stageDetails: ExecutionDetails, tolerance: number, durationMs: number): StageResult {
  const base = { stage: 'execution' as const, details: stageDetails, duration_ms: durationMs };
  const total = details.length;
  const unscored = details.filter((d) => d.score === null);
  const firstUnscored = unscored[0];
  if (firstUnscored) {
    return {
      ...base,
      status: 'error',
      passed: false,
      score: null,
      error_code: firstUnscored.error_code ?? 'execution_failed',
      message: `Could not score ${unscored.length} of ${total} expected calls: ${describeProblems(unscored)}`,
    };
  }
  const score = details.reduce((sum, d) => sum + (d.score ?? 0), 0) / total;
  const problems = details.filter((d) => d.status !== 'matched');
  if (problems.length === 0) {
    return {
      ...base,
      status: 'passed',
      passed: true,
      score,
      message: `All ${total} expected calls returned the expected data (relative tolerance ${formatPercent(tolerance)}).`,
    };
  }
  return {
    ...base,
    status: 'failed',
    passed: false,
    score,
    error_code: problems.some((d) => d.status === 'failed') ? 'execution_failed' : 'data_mismatch',
    message: `${problems.length} of ${total} expected calls did not return the expected data: ${describeProblems(problems)}`,
  };
}

function skipped(started: number, message: string): ExecutionStageOutput {
  return {
    result: {
      stage: 'execution',
      status: 'skipped',
      passed: false,
      score: null,
      error_code: 'no_expected_data',
      message,
      duration_ms: elapsedMs(started),
    },
    api_calls_made: 0,
    responses: [],
  };
}

function missingCall(index: number, testCase: TestCase): ExecutionCallDetail {
  const toolName = testCase.expected_tool_calls[index]?.tool_name ?? 'unknown';
  return {
    expected_index: index,
    actual_index: null,
    tool_name: toolName,
    status: 'missing',
    score: 0,
    entries: [{ path: '', kind: 'missing', message: `expected call #${index} (${toolName}) was not made, so it returned no data` }],
    duration_ms: 0,
  };
}

/** For each expected index, the first valid actual index paired with it; out-of-range pairs are ignored. */
function actualIndexByExpected(
  expectedCount: number,
  actualCount: number,
  assignment: readonly CallAssignment[],
): Array<number | undefined> {
  const byExpected = new Array<number | undefined>(expectedCount).fill(undefined);
  for (const { expected_index: e, actual_index: a } of assignment) {
    if (e === null || a === null || !Number.isInteger(e) || !Number.isInteger(a)) continue;
    if (e < 0 || e >= expectedCount || a < 0 || a >= actualCount) continue;
    byExpected[e] ??= a;
  }
  return byExpected;
}
