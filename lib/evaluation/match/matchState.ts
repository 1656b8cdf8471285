import type { ArgMatcher, CoercionKind, CoercionPolicy, DiffEntry, ExpectedValue } from '../../domain/index.js';
import type { JsonSchema } from './schemaNav.js';

/** Settings fixed for one match, shared by every sub-walk. */
export interface WalkConfig {
  readonly policy: CoercionPolicy;
  readonly floatLiteralPaths: ReadonlySet<string> | undefined;
  readonly relativeTolerance: number;
  readonly absoluteTolerance: number;
  /** paths (and their subtrees) that are not compared at all */
  readonly ignore: RegExp | undefined;
}

/** The running tally of one walk: leaf checks made and passed, and the diff entries. */
export interface WalkState {
  readonly cfg: WalkConfig;
  checks: number;
  passed: number;
  entries: DiffEntry[];
}

export function newState(cfg: WalkConfig): WalkState {
  return { cfg, checks: 0, passed: 0, entries: [] };
}

/** Fraction of checks passed; a walk with no checks (everything ignored) counts as a full match. */
export function ratio(st: WalkState): number {
  return st.checks === 0 ? 1 : st.passed / st.checks;
}

export function allPassed(st: WalkState): boolean {
  return st.passed === st.checks;
}

/** Add a finished sub-walk to its parent. */
export function merge(into: WalkState, from: WalkState): void {
  into.checks += from.checks;
  into.passed += from.passed;
  for (const entry of from.entries) into.entries.push(entry);
}

export function isIgnored(st: WalkState, path: string): boolean {
  return st.cfg.ignore !== undefined && st.cfg.ignore.test(path);
}

/** One passed leaf. */
export function pass(st: WalkState): void {
  st.checks++;
  st.passed++;
}

/** One passed leaf reached through coercions (named in a `coerced` entry). */
export function passCoerced(st: WalkState, path: string, expected: unknown, actual: unknown, coercions: CoercionKind[]): void {
  st.checks++;
  st.passed++;
  st.entries.push({ path, kind: 'coerced', expected, actual, coercions });
}

/** One failed leaf: same type, different value; `refused` names coercions that would have matched but the policy forbids. */
export function failMismatch(
  st: WalkState,
  path: string,
  expected: unknown,
  actual: unknown,
  refused?: CoercionKind[],
  message?: string,
): void {
  st.checks++;
  const entry: DiffEntry = { path, kind: 'mismatch', expected, actual };
  if (refused !== undefined && refused.length > 0) {
    entry.coercions = refused;
    entry.message = `${refused.join(' + ')} would make them equal but the coercion policy does not allow it`;
  }
  if (message !== undefined) entry.message = message;
  st.entries.push(entry);
}

/** The actual value has another JSON type than the expected one; every expected leaf below fails. */
export function failTypeMismatch(st: WalkState, path: string, expected: ExpectedValue, actual: unknown, message?: string): void {
  st.checks += leafCount(expected);
  st.entries.push({
    path,
    kind: 'type_mismatch',
    expected,
    actual,
    message: message ?? `expected ${jsonType(expected)}, got ${jsonType(actual)}`,
  });
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export function toResult(st: WalkState): MatchResult {
  return { score: ratio(st), passed: allPassed(st), entries: st.entries };
}

/** An expected value with no actual counterpart: each of its leaves is a failed check. */
export function failMissing(st: WalkState, path: string, expected: ExpectedValue): void {
  if (isIgnored(st, path)) return;
  st.checks += leafCount(expected);
  st.entries.push({ path, kind: 'missing', expected });
}

/** An actual value the case does not ask for: one failed check. */
export function failExtra(st: WalkState, path: string, actual: unknown): void {
  if (isIgnored(st, path)) return;
  st.checks++;
  st.entries.push({ path, kind: 'extra', actual });
}

/**
 * How many leaf checks an expected value stands for: 1 per scalar, the sum over an object's or array's children
 * (1 for an empty one), and for a matcher the leaves of its `$value` (or first `$one_of` alternative), else 1.
 * Used to weigh a value that is missing or of the wrong type as that many failed checks.
 */
export function leafCount(value: ExpectedValue): number {
  if (value === null || typeof value !== 'object') return 1;
  let sum = 0;
  if (Array.isArray(value)) {
    for (const item of value) sum += leafCount(item);
    return sum === 0 ? 1 : sum;
  }
  if (isMatcher(value)) {
    if (value.$value !== undefined) return leafCount(value.$value);
    const first = value.$one_of?.[0];
    return first === undefined ? 1 : leafCount(first);
  }
  for (const key in value) sum += leafCount((value as Record<string, ExpectedValue>)[key]!);
  return sum === 0 ? 1 : sum;
}

/**
 * Same rule as the domain's isMatcherObject (a non-empty object whose keys all start with `$`), without allocating:
 * the comparator calls it for every object in an expected value, and a plain object is recognised at its first key.
 */
export function isMatcher(value: object): value is ArgMatcher {
  if (Array.isArray(value)) return false;
  let any = false;
  for (const key in value) {
    if (key.charCodeAt(0) !== 36 /* $ */) return false;
    any = true;
  }
  return any;
}

/** What a match needs besides the two values. */
export interface MatchContext {
  policy: CoercionPolicy;
  /** JSON pointer of the value being matched (`''` for the root); diff paths start here. */
  path: string;
  /** JSON Schema of this value (a tool's `parameters` for call arguments). Drives int/float, enum, defaults, order. */
  schema?: JsonSchema;
  /** JSON pointers (from the same root as `path`) of actual numbers written in float form (`5.0`). */
  floatLiteralPaths?: ReadonlySet<string>;
  /** Relative tolerance for numbers without `$tolerance`; default: the policy's `numeric_relative_tolerance`. */
  defaultRelativeTolerance?: number;
  /** Keys of the top-level actual object that the expected object does not mention are not extra. */
  allowExtraKeys?: boolean;
}

/** The outcome of a match. */
export interface MatchResult {
  /** fraction of leaf checks that passed, in [0, 1] (1 when there was nothing to check) */
  score: number;
  /** every leaf check passed (coerced equalities pass) */
  passed: boolean;
  /** mismatches, plus one `coerced` entry per place where a coercion was applied */
  entries: DiffEntry[];
}
