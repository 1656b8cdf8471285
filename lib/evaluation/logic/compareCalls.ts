import type { CallDiff, CoercionPolicy, ExpectedToolCall, ToolCall, ToolCatalog } from '../../domain/index.js';
import { assignmentTotal, maximizeAssignment } from '../match/index.js';
import { createPairScorer, type PairScorer } from './callPairs.js';
import { maximizeOrderedAlignment } from './orderedAlignment.js';
import type { CallComparison, CallPair } from './callComparison.js';
import { applyDependencyOrder } from './dependencyOrder.js';
import { toolParameterSchemas } from './toolSchemas.js';
import type { CallOutcomes } from './callOutcomes.js';

export interface CompareCallsOptions {
  policy: CoercionPolicy;
  /** argument schemas (types, enums, defaults, unordered arrays) come from the catalog's tool definitions */
  catalog?: ToolCatalog;
  /**
   * `any` (default): parallel calls, matched regardless of order. `strict`: the matching must keep the order.
   * `dependency`: matched as for `any`, then each call must come after the calls it `depends_on`.
   */
  callOrder?: 'any' | 'strict' | 'dependency';
  /** what each actual call returned (trajectory or environment replay): `$from` arguments are checked against it */
  outcomes?: CallOutcomes;
}

/**
 * Compare one expected call set with the actual calls. Calls are paired one-to-one by an optimal assignment
 * (Hungarian) that first maximises the number of same-tool pairs, then the sum of their argument scores; calls of
 * different tools are never paired. With `callOrder: 'strict'` the score comes from the best order-preserving
 * pairing instead (a weighted longest common subsequence). Pure and deterministic.
 */
export function compareCalls(
  expected: readonly ExpectedToolCall[],
  actual: readonly ToolCall[],
  options: CompareCallsOptions,
): CallComparison {
  if (options.callOrder === 'dependency')
    return applyDependencyOrder(expected, actual.length, compareCalls(expected, actual, { ...options, callOrder: 'any' }));
  const rows = expected.length;
  const cols = actual.length;
  const score = createPairScorer(
    expected,
    actual,
    options.policy,
    options.catalog && toolParameterSchemas(options.catalog),
    options.outcomes,
  );
  if (rows === cols && rows > 0 && identityPasses(score, rows)) return summarize(expected, actual, score, IDENTITY, IDENTITY, false);
  const forced = forcedAssignment(expected, actual);
  if (forced !== undefined && (options.callOrder !== 'strict' || keepsOrder(forced)))
    return summarize(expected, actual, score, forced, forced, false);
  // weight 1 + score for a same-tool pair (so pairing always beats leaving both unpaired), 0 for different tools
  const weights = new Float64Array(rows * cols);
  for (let e = 0; e < rows; e++) {
    for (let a = 0; a < cols; a++) {
      const result = score(e, a);
      weights[e * cols + a] = result === null ? 0 : 1 + result.score;
    }
  }
  const unordered = maximizeAssignment(weights, rows, cols);
  for (let e = 0; e < rows; e++) if (unordered[e]! >= 0 && weights[e * cols + unordered[e]!] === 0) unordered[e] = -1;
  if (options.callOrder !== 'strict') return summarize(expected, actual, score, unordered, unordered, false);
  const ordered = maximizeOrderedAlignment(weights, rows, cols);
  const outOfOrder = assignmentTotal(weights, cols, ordered) < assignmentTotal(weights, cols, unordered) - 1e-9;
  return outOfOrder
    ? summarize(expected, actual, score, unordered, ordered, true)
    : summarize(expected, actual, score, ordered, ordered, false);
}

function identityPasses(score: PairScorer, n: number): boolean {
  for (let i = 0; i < n; i++) if (score(i, i)?.passed !== true) return false;
  return true;
}

/**
 * When no tool name occurs twice on either side, the optimal pairing is forced: each call pairs with the only
 * call of the same tool, if any. Returns undefined when some tool name repeats (the Hungarian solver decides).
 */
function forcedAssignment(expected: readonly ExpectedToolCall[], actual: readonly ToolCall[]): number[] | undefined {
  const rowToCol: number[] = [];
  for (let e = 0; e < expected.length; e++) {
    const name = expected[e]!.tool_name;
    let col = -1;
    for (let a = 0; a < actual.length; a++) {
      if (actual[a]!.tool_name !== name) continue;
      if (col !== -1) return undefined; // the tool is called twice
      col = a;
    }
    if (col !== -1 && rowToCol.includes(col)) return undefined; // the tool is expected twice
    rowToCol.push(col);
  }
  return rowToCol;
}

function keepsOrder(rowToCol: readonly number[]): boolean {
  let last = -1;
  for (const a of rowToCol) {
    if (a < 0) continue;
    if (a < last) return false;
    last = a;
  }
  return true;
}

/** The assignment e -> e, without allocating one. */
const IDENTITY = null;
type Assignment = ArrayLike<number> | typeof IDENTITY;

function columnOf(assignment: Assignment, e: number): number {
  return assignment === IDENTITY ? e : assignment[e]!;
}

/**
 * Build the result. `shown` is the pairing reported in the diff and the assignment; `scored` the one the metrics
 * come from. They differ only when calls are out of the required order: the diff pairs calls by content, the
 * score counts only the pairs that keep the order.
 */
function summarize(
  expected: readonly ExpectedToolCall[],
  actual: readonly ToolCall[],
  score: PairScorer,
  shown: Assignment,
  scored: Assignment,
  outOfOrder: boolean,
): CallComparison {
  const calls: CallDiff[] = [];
  const assignment: CallPair[] = [];
  const used: boolean[] | undefined = shown === IDENTITY ? undefined : new Array<boolean>(actual.length).fill(false);
  let allMatched = true;
  for (let e = 0; e < expected.length; e++) {
    const a = columnOf(shown, e);
    const result = a >= 0 ? score(e, a) : null;
    if (result === null) {
      allMatched = false;
      calls.push({
        expected_index: e,
        actual_index: null,
        tool_name: expected[e]!.tool_name,
        status: 'missing',
        argument_score: 0,
        entries: [],
      });
      continue;
    }
    if (used !== undefined) used[a] = true;
    if (!result.passed) allMatched = false;
    assignment.push({ expected_index: e, actual_index: a });
    calls.push({
      expected_index: e,
      actual_index: a,
      tool_name: expected[e]!.tool_name,
      status: result.passed ? 'matched' : 'partial',
      argument_score: result.score,
      entries: result.entries,
    });
  }
  if (used !== undefined) {
    for (let a = 0; a < actual.length; a++) {
      if (used[a]) continue;
      allMatched = false;
      calls.push({
        expected_index: null,
        actual_index: a,
        tool_name: actual[a]!.tool_name,
        status: 'extra',
        argument_score: 0,
        entries: [],
      });
    }
  }
  let truePositive = 0;
  for (let e = 0; e < expected.length; e++) {
    const a = columnOf(scored, e);
    if (a >= 0) truePositive += score(e, a)?.score ?? 0;
  }
  const precision = actual.length === 0 ? (expected.length === 0 ? 1 : 0) : truePositive / actual.length;
  const recall = expected.length === 0 ? 1 : truePositive / expected.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { passed: allMatched && !outOfOrder, precision, recall, f1, calls, assignment, outOfOrder };
}
