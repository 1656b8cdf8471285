import type { CoercionPolicy, ExpectedToolCall, ExpectedValue, ToolCall } from '../../domain/index.js';
import { type ArgumentsMatcher, createArgumentsMatcher, type JsonSchema, type MatchResult } from '../match/index.js';
import { hasReferences } from '../../domain/index.js';
import type { CallOutcomes } from './callOutcomes.js';
import { annotateReferences, resolveReference, substituteReferences } from './dataFlowReferences.js';

/** The argument match of expected call `e` with actual call `a`, or null when they name different tools. */
export type PairScorer = (e: number, a: number) => MatchResult | null;

const matchers = new WeakMap<CoercionPolicy, ArgumentsMatcher>();

/** One prepared matcher per policy object (named policies are shared constants, so this is built a few times per run). */
function matcherFor(policy: CoercionPolicy): ArgumentsMatcher {
  let matcher = matchers.get(policy);
  if (matcher === undefined) {
    matcher = createArgumentsMatcher(policy);
    matchers.set(policy, matcher);
  }
  return matcher;
}

const NO_ARGUMENTS: Readonly<Record<string, ExpectedValue>> = Object.freeze({});

/**
 * A lazy, memoised scorer over every (expected, actual) pair of one call set. A pair is only compared when the
 * tool names are equal; each pair is compared at most once. An actual call's float literal paths become a Set
 * once, shared by every pair it is in.
 */
export function createPairScorer(
  expected: readonly ExpectedToolCall[],
  actual: readonly ToolCall[],
  policy: CoercionPolicy,
  schemas: ReadonlyMap<string, JsonSchema> | undefined,
  /** what each actual call returned: `$from` arguments are resolved against it, per actual call */
  outcomes?: CallOutcomes,
): PairScorer {
  const withReferences = expected.map((call) => call.arguments !== undefined && hasReferences(call.arguments));
  const cols = actual.length;
  const cache: Array<MatchResult | null | undefined> = new Array(expected.length * cols);
  let floatPaths: Array<ReadonlySet<string> | undefined> | undefined; // only when a call has float literals
  const matchArguments = matcherFor(policy);
  return (e, a) => {
    const index = e * cols + a;
    const cached = cache[index];
    if (cached !== undefined) return cached;
    const want = expected[e]!;
    const got = actual[a]!;
    if (want.tool_name !== got.tool_name) return (cache[index] = null);
    let paths: ReadonlySet<string> | undefined;
    if (got.float_literal_paths !== undefined && got.float_literal_paths.length > 0) {
      floatPaths ??= new Array<ReadonlySet<string> | undefined>(cols);
      paths = floatPaths[a] ??= new Set(got.float_literal_paths);
    }
    if (withReferences[e]) {
      const { args, refs } = substituteReferences(want.arguments, (ref) => resolveReference(ref, a, actual, outcomes));
      const matched = matchArguments(args, got.arguments, schemas?.get(want.tool_name), paths, want.allow_extra_arguments === true);
      return (cache[index] = annotateReferences(matched, refs));
    }
    const result = matchArguments(
      want.arguments ?? NO_ARGUMENTS,
      got.arguments,
      schemas?.get(want.tool_name),
      paths,
      want.allow_extra_arguments === true,
    );
    return (cache[index] = result);
  };
}
