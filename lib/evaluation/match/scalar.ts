import type { CoercionKind, NumericTolerance } from '../../domain/index.js';
import { parseIsoInstant } from './isoDate.js';
import { isFloatText, parseNumericString, withinTolerance } from './numbers.js';
import { hasEnum, numericType, type JsonSchema } from './schemaNav.js';
import { stringEquivalence } from './strings.js';
import { failMismatch, failTypeMismatch, pass, passCoerced, type WalkState } from './matchState.js';

type Scalar = string | number | boolean | null;

/** Compare one expected scalar with the actual value: exactly one leaf check. */
export function walkScalar(
  expected: Scalar,
  actual: unknown,
  schema: JsonSchema | undefined,
  path: string,
  tolerance: NumericTolerance | undefined,
  st: WalkState,
): void {
  if (typeof expected === 'number') return walkNumber(expected, actual, schema, path, tolerance, st);
  if (expected === actual) return pass(st);
  if (typeof expected === 'string') return walkString(expected, actual, schema, path, st);
  if (typeof expected === 'boolean' && typeof actual === 'string') {
    if (booleanText(actual) === expected) return coerceOrRefuse(st, path, expected, actual, 'boolean_string');
  }
  if (typeof actual === typeof expected && actual !== null && expected !== null) return failMismatch(st, path, expected, actual);
  return failTypeMismatch(st, path, expected, actual);
}

function walkNumber(
  expected: number,
  actual: unknown,
  schema: JsonSchema | undefined,
  path: string,
  tolerance: NumericTolerance | undefined,
  st: WalkState,
): void {
  let value: number;
  let viaString = false;
  if (typeof actual === 'number') {
    value = actual;
  } else {
    const parsed = typeof actual === 'string' ? parseNumericString(actual) : undefined;
    if (parsed === undefined) return failTypeMismatch(st, path, expected, actual);
    value = parsed;
    viaString = true;
  }
  const exact = value === expected;
  const { cfg } = st;
  if (!exact && !withinTolerance(expected, value, tolerance, cfg.relativeTolerance, cfg.absoluteTolerance)) {
    return failMismatch(st, path, expected, actual);
  }
  const kind = numericKindCoercion(schema, value, viaString ? isFloatText(actual as string) : isFloatLiteral(st, path, value));
  if (exact && !viaString) {
    if (kind === undefined) return pass(st);
    return cfg.policy[kind] ? passCoerced(st, path, expected, actual, [kind]) : failMismatch(st, path, expected, actual, [kind]);
  }
  const used: CoercionKind[] = [];
  const refused: CoercionKind[] = [];
  if (viaString) (cfg.policy.numeric_string ? used : refused).push('numeric_string');
  if (kind !== undefined) (cfg.policy[kind] ? used : refused).push(kind);
  if (!exact) used.push('numeric_tolerance');
  if (refused.length > 0) return failMismatch(st, path, expected, actual, refused);
  return passCoerced(st, path, expected, actual, used);
}

/** Float/int mixing only exists where the schema says `integer` or `number`; JSON itself has one number type. */
function numericKindCoercion(
  schema: JsonSchema | undefined,
  value: number,
  floatForm: boolean,
): 'int_to_float' | 'float_to_int' | undefined {
  const type = numericType(schema);
  if (type === undefined) return undefined;
  if (type === 'integer') return floatForm ? 'float_to_int' : undefined;
  return floatForm ? undefined : 'int_to_float';
}

function isFloatLiteral(st: WalkState, path: string, value: number): boolean {
  if (!Number.isInteger(value)) return true;
  const paths = st.cfg.floatLiteralPaths;
  return paths !== undefined && paths.has(path);
}

function walkString(expected: string, actual: unknown, schema: JsonSchema | undefined, path: string, st: WalkState): void {
  const { policy } = st.cfg;
  if (typeof actual === 'string') {
    let refused: CoercionKind[] | undefined;
    if (hasEnum(schema) && expected.toLowerCase() === actual.toLowerCase()) {
      if (policy.enum_case) return passCoerced(st, path, expected, actual, ['enum_case']);
      refused = ['enum_case'];
    }
    const equivalence = stringEquivalence(expected, actual, policy.string_normalization);
    if (equivalence?.allowed) return passCoerced(st, path, expected, actual, equivalence.coercions);
    if (equivalence !== undefined) refused = [...(refused ?? []), ...equivalence.coercions];
    const instant = parseIsoInstant(expected);
    if (instant !== undefined && parseIsoInstant(actual) === instant) {
      if (policy.iso_dates) return passCoerced(st, path, expected, actual, ['iso_date']);
      refused = [...(refused ?? []), 'iso_date'];
    }
    return failMismatch(st, path, expected, actual, refused);
  }
  if (typeof actual === 'number' && parseNumericString(expected) === actual)
    return coerceOrRefuse(st, path, expected, actual, 'numeric_string');
  if (typeof actual === 'boolean' && booleanText(expected) === actual) return coerceOrRefuse(st, path, expected, actual, 'boolean_string');
  return failTypeMismatch(st, path, expected, actual);
}

function coerceOrRefuse(st: WalkState, path: string, expected: Scalar, actual: unknown, kind: 'numeric_string' | 'boolean_string'): void {
  if (st.cfg.policy[kind]) return passCoerced(st, path, expected, actual, [kind]);
  return failMismatch(st, path, expected, actual, [kind]);
}

/** `"true"`/`"false"` (any case, surrounding whitespace ignored) as a boolean, else undefined. */
function booleanText(text: string): boolean | undefined {
  const t = text.trim().toLowerCase();
  return t === 'true' ? true : t === 'false' ? false : undefined;
}
