import { type ArgMatcher, childPointer, type CoercionPolicy, type ExpectedValue, type NumericTolerance } from '../../domain/index.js';
import { maximizeAssignment } from './assignment.js';
import { formatValue } from './describeEntry.js';
import {
  allPassed,
  failExtra,
  failMismatch,
  failMissing,
  failTypeMismatch,
  isIgnored,
  isMatcher,
  jsonType,
  merge,
  newState,
  pass,
  passCoerced,
  ratio,
  toResult,
  type MatchContext,
  type MatchResult,
  type WalkConfig,
  type WalkState,
} from './matchState.js';
import { parseNumericString } from './numbers.js';
import { walkScalar } from './scalar.js';
import {
  isUnorderedArraySchema,
  itemSchema,
  NO_DEFAULT,
  numericType,
  propertySchema,
  schemaDefault,
  type JsonSchema,
} from './schemaNav.js';

/**
 * Compare an actual value with what the case expects, under the coercion policy. `actual === undefined` means
 * the value is absent (an omitted argument). Pure and deterministic; never throws on bad input.
 */
export function matchValue(expected: ExpectedValue, actual: unknown, ctx: MatchContext): MatchResult {
  const st = newState(configOf(ctx));
  if (actual === undefined) {
    walkAbsent(expected, ctx.schema, ctx.path, st);
  } else if (typeof expected === 'object' && expected !== null && !Array.isArray(expected) && !isMatcher(expected)) {
    walkObject(expected as Record<string, ExpectedValue>, actual, ctx.schema, ctx.path, undefined, ctx.allowExtraKeys === true, st);
  } else {
    walkValue(expected, actual, ctx.schema, ctx.path, undefined, st);
  }
  return toResult(st);
}

/**
 * Compare a call's arguments object with the expected arguments. Unlike matchValue, the expected object is always
 * read as a map of argument names, even when every name starts with `$`.
 */
export function matchArguments(
  expected: Readonly<Record<string, ExpectedValue>>,
  actual: Readonly<Record<string, unknown>>,
  ctx: MatchContext,
): MatchResult {
  const st = newState(configOf(ctx));
  walkObject(expected, actual, ctx.schema, ctx.path, undefined, ctx.allowExtraKeys === true, st);
  return toResult(st);
}

/** Compares a call's arguments: `(expected, actual, schema?, floatLiteralPaths?, allowExtraKeys?)`. */
export type ArgumentsMatcher = (
  expected: Readonly<Record<string, ExpectedValue>>,
  actual: Readonly<Record<string, unknown>>,
  schema: JsonSchema | undefined,
  floatLiteralPaths: ReadonlySet<string> | undefined,
  allowExtraKeys: boolean,
) => MatchResult;

/**
 * matchArguments prepared once for a policy (e.g. once per case) and reused for every pair of calls: the settings
 * are built once, so a hot loop allocates only the results. Same semantics as matchArguments with `path: ''`.
 */
export function createArgumentsMatcher(policy: CoercionPolicy, defaultRelativeTolerance?: number): ArgumentsMatcher {
  const shared = configOf({ policy, path: '', defaultRelativeTolerance });
  return (expected, actual, schema, floatLiteralPaths, allowExtraKeys) => {
    const st = newState(floatLiteralPaths === undefined ? shared : { ...shared, floatLiteralPaths });
    walkObject(expected, actual, schema, '', undefined, allowExtraKeys, st);
    return toResult(st);
  };
}

function configOf(ctx: MatchContext): WalkConfig {
  return {
    policy: ctx.policy,
    floatLiteralPaths: ctx.floatLiteralPaths,
    relativeTolerance: ctx.defaultRelativeTolerance ?? ctx.policy.numeric_relative_tolerance,
    absoluteTolerance: ctx.policy.numeric_absolute_tolerance,
    ignore: undefined,
  };
}

type ExpectedObject = { readonly [key: string]: ExpectedValue };
const hasOwn = Object.prototype.hasOwnProperty;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Compare an expected value with an actual one that is present, adding its leaf checks and diff entries to `st`. */
export function walkValue(
  expected: ExpectedValue,
  actual: unknown,
  schema: JsonSchema | undefined,
  path: string,
  tolerance: NumericTolerance | undefined,
  st: WalkState,
): void {
  if (st.cfg.ignore !== undefined && st.cfg.ignore.test(path)) return;
  if (expected === null || typeof expected !== 'object') return walkScalar(expected, actual, schema, path, tolerance, st);
  if (Array.isArray(expected)) {
    const unordered = isUnorderedArraySchema(schema) || !st.cfg.policy.arrays_ordered_by_default;
    return walkArray(expected, actual, schema, path, tolerance, unordered, st);
  }
  if (isMatcher(expected)) return walkMatcher(expected, actual, schema, path, tolerance, st);
  return walkObject(expected as ExpectedObject, actual, schema, path, tolerance, false, st);
}

/**
 * The actual value is absent. Passes when the matcher says `$optional`, or when the schema's `default` matches the
 * expected value (coercion `default_value`); otherwise every expected leaf fails as `missing`.
 */
export function walkAbsent(expected: ExpectedValue, schema: JsonSchema | undefined, path: string, st: WalkState): void {
  if (isIgnored(st, path)) return;
  if (typeof expected === 'object' && expected !== null && isMatcher(expected) && expected.$optional === true) return pass(st);
  const fallback = schemaDefault(schema);
  if (fallback !== NO_DEFAULT) {
    const sub = newState(st.cfg);
    walkValue(expected, fallback, schema, path, undefined, sub);
    if (allPassed(sub)) {
      st.checks += sub.checks;
      st.passed += sub.checks;
      st.entries.push({
        path,
        kind: 'coerced',
        expected,
        actual: fallback,
        coercions: ['default_value'],
        message: 'omitted; the schema default applies',
      });
      return;
    }
  }
  failMissing(st, path, expected);
}

/** Objects: every expected key is checked; actual keys the case does not mention are `extra` (one failed check each). */
export function walkObject(
  expected: ExpectedObject,
  actual: unknown,
  schema: JsonSchema | undefined,
  path: string,
  tolerance: NumericTolerance | undefined,
  allowExtraKeys: boolean,
  st: WalkState,
): void {
  if (!isPlainObject(actual)) return failTypeMismatch(st, path, expected, actual);
  let expectedKeys = 0;
  let present = 0;
  for (const key in expected) {
    expectedKeys++;
    const want = expected[key]!;
    const got = actual[key];
    // one keyed load; own-ness is only checked when the load could have come from the prototype (never for JSON data)
    if ((got === undefined || typeof got === 'function' || key === '__proto__') && !hasOwn.call(actual, key)) {
      walkAbsent(want, propertySchema(schema, key), childPointer(path, key), st);
      continue;
    }
    present++;
    if (want === got && passesAsIs(want, schema, key, st)) {
      pass(st);
      continue;
    }
    walkValue(want, got, propertySchema(schema, key), childPointer(path, key), tolerance, st);
  }
  let actualKeys = 0;
  for (const _ in actual) actualKeys++;
  if (expectedKeys === 0 && actualKeys === 0) return pass(st);
  if (actualKeys === present || allowExtraKeys) return;
  for (const key in actual) {
    if (!hasOwn.call(expected, key)) walkExtra(actual[key], propertySchema(schema, key), childPointer(path, key), st);
  }
}

/**
 * Fast path for a scalar identical to the expected one (the caller checked `===`): it passes with no coercion to
 * name and no path to build, unless paths are ignored or it is a number whose schema type (integer/number) makes
 * its literal form matter. `at` is the key or index of the value under its parent's schema.
 */
function passesAsIs(value: ExpectedValue, parentSchema: JsonSchema | undefined, at: string | number, st: WalkState): boolean {
  if (st.cfg.ignore !== undefined || (typeof value === 'object' && value !== null)) return false;
  if (typeof value !== 'number' || parentSchema === undefined) return true;
  const type = numericType(typeof at === 'string' ? propertySchema(parentSchema, at) : itemSchema(parentSchema, at));
  if (type === undefined) return true;
  return type === 'integer' ? st.cfg.floatLiteralPaths === undefined : !Number.isInteger(value);
}

/** An actual key the case does not mention: not extra when it equals the schema's default (`default_value`, no check). */
function walkExtra(actual: unknown, schema: JsonSchema | undefined, path: string, st: WalkState): void {
  if (isIgnored(st, path)) return;
  const fallback = schemaDefault(schema);
  if (fallback !== NO_DEFAULT) {
    const sub = newState(st.cfg);
    walkValue(fallback as ExpectedValue, actual, schema, path, undefined, sub);
    if (allPassed(sub)) {
      st.entries.push({
        path,
        kind: 'coerced',
        expected: fallback,
        actual,
        coercions: ['default_value'],
        message: 'not asked for, but equal to the schema default',
      });
      return;
    }
  }
  failExtra(st, path, actual);
}

/** Arrays: element by element in order, or (unordered) by an optimal one-to-one matching of elements. */
export function walkArray(
  expected: ExpectedValue[],
  actual: unknown,
  schema: JsonSchema | undefined,
  path: string,
  tolerance: NumericTolerance | undefined,
  unordered: boolean,
  st: WalkState,
): void {
  if (!Array.isArray(actual)) return failTypeMismatch(st, path, expected, actual);
  if (expected.length === 0 && actual.length === 0) return pass(st);
  if (unordered) {
    return matchUnordered(expected, actual, path, st, (e, a, sub) =>
      walkValue(expected[e]!, actual[a], itemSchema(schema, e), childPointer(path, a), tolerance, sub),
    );
  }
  const common = Math.min(expected.length, actual.length);
  for (let i = 0; i < common; i++) {
    const want = expected[i]!;
    const got: unknown = actual[i];
    if (want === got && passesAsIs(want, schema, i, st)) pass(st);
    else walkValue(want, got, itemSchema(schema, i), childPointer(path, i), tolerance, st);
  }
  for (let i = common; i < expected.length; i++) failMissing(st, childPointer(path, i), expected[i]!);
  for (let i = common; i < actual.length; i++) failExtra(st, childPointer(path, i), actual[i]);
}

/** Matchers (`$any`, `$range`, `$value`/`$one_of` with `$tolerance` and `$unordered`); the value is present. */
function walkMatcher(
  m: ArgMatcher,
  actual: unknown,
  schema: JsonSchema | undefined,
  path: string,
  tolerance: NumericTolerance | undefined,
  st: WalkState,
): void {
  if (m.$any === true) return pass(st);
  if (m.$range !== undefined) return walkRange(m, actual, path, st);
  const innerTolerance = m.$tolerance ?? tolerance;
  const unordered = m.$unordered === true;
  const alternatives =
    m.$one_of === undefined ? (m.$value === undefined ? [] : [m.$value]) : m.$value === undefined ? m.$one_of : [m.$value, ...m.$one_of];
  if (alternatives.length === 0) return pass(st); // e.g. `{ "$optional": true }`: any present value
  if (alternatives.length === 1) return walkAlternative(alternatives[0]!, actual, schema, path, innerTolerance, unordered, st);
  let best: WalkState | undefined;
  for (const alternative of alternatives) {
    const sub = newState(st.cfg);
    walkAlternative(alternative, actual, schema, path, innerTolerance, unordered, sub);
    if (allPassed(sub)) return merge(st, sub);
    if (best === undefined || ratio(sub) > ratio(best)) best = sub;
  }
  if (alternatives.every((a) => a === null || typeof a !== 'object')) {
    return failMismatch(st, path, m, actual, undefined, `expected one of ${alternatives.length} values, got ${formatValue(actual)}`);
  }
  merge(st, best!);
}

function walkAlternative(
  alternative: ExpectedValue,
  actual: unknown,
  schema: JsonSchema | undefined,
  path: string,
  tolerance: NumericTolerance | undefined,
  unordered: boolean,
  st: WalkState,
): void {
  if (unordered && Array.isArray(alternative)) {
    if (isIgnored(st, path)) return;
    return walkArray(alternative, actual, schema, path, tolerance, true, st);
  }
  walkValue(alternative, actual, schema, path, tolerance, st);
}

/** `$range`: a number (or, when the policy allows, a numeric string) within [min, max], bounds inclusive. */
function walkRange(m: ArgMatcher, actual: unknown, path: string, st: WalkState): void {
  const { min, max } = m.$range!;
  const value = typeof actual === 'number' ? actual : typeof actual === 'string' ? parseNumericString(actual) : undefined;
  const inRange = value !== undefined && (min === undefined || value >= min) && (max === undefined || value <= max);
  if (!inRange) {
    const wanted = `expected a number in [${min ?? '-∞'}, ${max ?? '+∞'}]`;
    if (value === undefined) return failTypeMismatch(st, path, m, actual, `${wanted}, got ${jsonType(actual)}`);
    return failMismatch(st, path, m, actual, undefined, wanted);
  }
  const viaString = typeof actual === 'string';
  if (!viaString) return pass(st);
  if (st.cfg.policy.numeric_string) return passCoerced(st, path, m, actual, ['numeric_string']);
  return failMismatch(st, path, m, actual, ['numeric_string']);
}

/** Compares expected element `e` with actual element `a`, tallying into `sub`. */
export type PairWalker = (e: number, a: number, sub: WalkState) => void;

/**
 * Unordered arrays: elements are paired by an optimal one-to-one assignment that maximises the sum of the pairs'
 * scores (never greedy). Unpaired expected elements are `missing` at `<array>/-` (RFC 6901: past the end), unpaired
 * actual elements `extra` at their actual index; a paired element's entries use the actual index. When every element
 * matched but not in order, one `coerced` entry with `unordered_array` is added at the array's path.
 */
export function matchUnordered(
  expected: readonly ExpectedValue[],
  actual: readonly unknown[],
  path: string,
  st: WalkState,
  walkPair: PairWalker,
): void {
  const rows = expected.length;
  const cols = actual.length;
  if (rows === cols) {
    const inOrder = newState(st.cfg);
    for (let i = 0; i < rows; i++) walkPair(i, i, inOrder);
    if (allPassed(inOrder)) return merge(st, inOrder);
  }
  const pairs: WalkState[] = new Array<WalkState>(rows * cols);
  const weights = new Float64Array(rows * cols);
  for (let e = 0; e < rows; e++) {
    for (let a = 0; a < cols; a++) {
      const sub = newState(st.cfg);
      walkPair(e, a, sub);
      pairs[e * cols + a] = sub;
      weights[e * cols + a] = ratio(sub);
    }
  }
  const rowToCol = maximizeAssignment(weights, rows, cols);
  const used = new Uint8Array(cols);
  let everyPairPassed = rows === cols;
  let reordered = false;
  for (let e = 0; e < rows; e++) {
    const a = rowToCol[e]!;
    if (a < 0) {
      failMissing(st, `${path}/-`, expected[e]!);
      continue;
    }
    used[a] = 1;
    const sub = pairs[e * cols + a]!;
    merge(st, sub);
    if (!allPassed(sub)) everyPairPassed = false;
    if (a !== e) reordered = true;
  }
  for (let a = 0; a < cols; a++) if (used[a] === 0) failExtra(st, childPointer(path, a), actual[a]);
  if (everyPairPassed && reordered) {
    st.entries.push({ path, kind: 'coerced', coercions: ['unordered_array'], message: 'elements matched in another order' });
  }
}
