import {
  type CoercionPolicy,
  type LogicDetails,
  resolveCoercionPolicy,
  type StageResult,
  type TestCase,
  type ToolCall,
  type ToolCatalog,
} from '../../domain/index.js';
import { compareCalls, type CompareCallsOptions } from './compareCalls.js';
import { type CallComparison, type CallPair } from './callComparison.js';
import { logicErrorCode } from './errorCode.js';
import { logicMessage } from './message.js';
import type { CallOutcomes } from './callOutcomes.js';

export interface LogicStageOptions {
  /** the run's policy; the case's own `coercion` is applied over it, unless `casePolicy` is given */
  policy: CoercionPolicy;
  /** the policy already resolved for this case (the pipeline resolves it once, for stages 1 and 2) */
  casePolicy?: CoercionPolicy;
  /** the case's tool catalog: argument types, enums, defaults and unordered arrays come from it */
  catalog?: ToolCatalog;
  /** what each actual call returned (trajectory, or a stateful case's replay): `$from` arguments are checked against it */
  outcomes?: CallOutcomes;
}

export interface LogicStageOutput {
  result: StageResult;
  /** the actual call assigned to each matched expected call of the chosen call set (stage 3 uses it) */
  assignment: CallPair[];
  /** -1 = expected_tool_calls, i >= 0 = alternative_tool_calls[i] */
  call_set: number;
}

/**
 * Stage 2: compare the parsed calls with the case's expected call set and each alternative set, and keep the best
 * (highest F1; ties go to the earlier set). An empty set means the right answer is to make no call.
 * score = F1 over calls with per-argument credit; passed = every expected call matched exactly (after allowed
 * coercions), no extra call, and the order kept when the case says `call_order: 'strict'`.
 */
export function runLogicStage(actual: readonly ToolCall[], testCase: TestCase, options: LogicStageOptions): LogicStageOutput {
  const started = performance.now();
  const policy =
    options.casePolicy ?? (testCase.coercion === undefined ? options.policy : resolveCoercionPolicy(options.policy, testCase.coercion));
  const compareOptions: CompareCallsOptions = { policy, catalog: options.catalog, callOrder: testCase.call_order };
  if (options.outcomes) compareOptions.outcomes = options.outcomes; // assigned, not spread: this runs once per case

  let best = compareCalls(testCase.expected_tool_calls, actual, compareOptions);
  let bestSet = -1;
  const alternatives = testCase.alternative_tool_calls ?? [];
  for (let i = 0; i < alternatives.length && !best.passed; i++) {
    const candidate = compareCalls(alternatives[i]!, actual, compareOptions);
    if (candidate.f1 > best.f1) {
      best = candidate;
      bestSet = i;
    }
  }
  const expectedCalls = bestSet < 0 ? testCase.expected_tool_calls.length : alternatives[bestSet]!.length;
  return {
    result: toStageResult(best, bestSet, expectedCalls, performance.now() - started),
    assignment: best.assignment,
    call_set: bestSet,
  };
}

function toStageResult(comparison: CallComparison, callSet: number, expectedCalls: number, durationMs: number): StageResult {
  const details: LogicDetails = {
    call_set: callSet,
    precision: comparison.precision,
    recall: comparison.recall,
    f1: comparison.f1,
    calls: comparison.calls,
  };
  const code = logicErrorCode(comparison, expectedCalls);
  const result: StageResult = {
    stage: 'logic',
    status: comparison.passed ? 'passed' : 'failed',
    passed: comparison.passed,
    score: comparison.f1,
    details,
    duration_ms: durationMs,
  };
  if (code !== undefined) {
    result.error_code = code;
    result.message = logicMessage(comparison, code, callSet);
  }
  return result;
}
