import type { CoercionPolicy } from '../../domain/coercionPolicy.js';
import type { DiffEntry } from '../../domain/diff.js';
import type { JsonSchema } from './schemaNav.js';

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
