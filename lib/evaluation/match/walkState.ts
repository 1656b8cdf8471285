import type { CoercionPolicy } from '../../domain/coercionPolicy.js';
import type { CoercionKind, DiffEntry } from '../../domain/diff.js';
import type { ExpectedValue } from '../../domain/expected.js';
import { leafCount } from './leafCount.js';
import type { MatchResult } from './types.js';

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
export function failMismatch(st: WalkState, path: string, expected: unknown, actual: unknown, refused?: CoercionKind[], message?: string): void {
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
  st.entries.push({ path, kind: 'type_mismatch', expected, actual, message: message ?? `expected ${jsonType(expected)}, got ${jsonType(actual)}` });
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
