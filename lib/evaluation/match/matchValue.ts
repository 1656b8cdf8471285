import type { CoercionPolicy } from '../../domain/coercionPolicy.js';
import type { ExpectedValue } from '../../domain/expected.js';
import { isMatcher } from './isMatcher.js';
import type { JsonSchema } from './schemaNav.js';
import type { MatchContext, MatchResult } from './types.js';
import { walkAbsent, walkObject, walkValue } from './walk.js';
import { newState, toResult, type WalkConfig } from './walkState.js';

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
export function matchArguments(expected: Readonly<Record<string, ExpectedValue>>, actual: Readonly<Record<string, unknown>>, ctx: MatchContext): MatchResult {
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
