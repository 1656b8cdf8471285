import { COERCION_POLICIES, type ExpectedValue } from '../../domain/index.js';
import { compilePointerPatterns } from './ignorePaths.js';
import { type MatchResult, newState, toResult } from './matchState.js';
import { walkAbsent, walkValue } from './matchValue.js';

export interface CompareDataOptions {
  /** relative tolerance for numbers without `$tolerance`: 0.0001 = 0.01% (the default) */
  relativeTolerance?: number;
  /** JSON pointers (RFC 6901) into the data to skip, subtree included; a `*` segment matches any key or index */
  ignorePaths?: readonly string[];
}

export const DEFAULT_DATA_RELATIVE_TOLERANCE = 0.0001;

/** Stage 3 compares data exactly: no string, boolean or date coercions, arrays in order unless `$unordered`. */
const DATA_POLICY = COERCION_POLICIES.strict;

const compiledIgnores = new WeakMap<readonly string[], RegExp | undefined>();

/**
 * Compare data an API returned with the case's expected data (stage 3). Numbers are equal within the relative
 * tolerance (of the expected value); matchers (`$range`, `$any`, `$tolerance`, `$unordered`, `$one_of`, ...) are
 * honoured; ignored paths are not compared. Throws only on an ignore path that is not a JSON pointer.
 */
export function compareData(expected: ExpectedValue, actual: unknown, options: CompareDataOptions = {}): MatchResult {
  const st = newState({
    policy: DATA_POLICY,
    floatLiteralPaths: undefined,
    relativeTolerance: options.relativeTolerance ?? DEFAULT_DATA_RELATIVE_TOLERANCE,
    absoluteTolerance: 0,
    ignore: options.ignorePaths === undefined ? undefined : ignoreRegExp(options.ignorePaths),
  });
  if (actual === undefined) walkAbsent(expected, undefined, '', st);
  else walkValue(expected, actual, undefined, '', undefined, st);
  return toResult(st);
}

function ignoreRegExp(paths: readonly string[]): RegExp | undefined {
  if (compiledIgnores.has(paths)) return compiledIgnores.get(paths);
  const compiled = compilePointerPatterns(paths);
  compiledIgnores.set(paths, compiled);
  return compiled;
}
