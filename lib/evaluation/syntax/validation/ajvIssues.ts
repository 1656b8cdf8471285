import type { ErrorObject } from 'ajv/dist/2020.js';
import { type ErrorCode, escapePointerSegment } from '../../../domain/index.js';
import type { CallIssue } from '../callIssue.js';
import { describeValue } from '../describeValue.js';

/** How the offending value is shown after "got" (the float-literal check substitutes its own rendering). */
export type DescribeGot = (path: string, data: unknown) => string;

const defaultGot: DescribeGot = (_path, data) => describeValue(data);

/** `#/properties/e/anyOf` of an error inside an anyOf/oneOf branch (the outermost combinator). */
const BRANCH = /^(.*?\/(?:anyOf|oneOf))\/\d+(?:\/|$)/;
const MAX_ALLOWED_SHOWN = 8;

/**
 * Map ajv errors (allErrors, verbose) to CallIssues: required -> missing_required_argument, type ->
 * wrong_argument_type, enum/const -> enum_violation, anything else -> schema_violation. Errors inside
 * anyOf/oneOf branches are folded into the combinator's error: when every branch failed on type (or on
 * enum/const) at the same place, the issue says so ("must be integer or null"), otherwise schema_violation.
 */
export function issuesFromAjv(
  errors: readonly ErrorObject[],
  callIndex: number,
  toolName: string,
  describeGot: DescribeGot = defaultGot,
): CallIssue[] {
  const branches = new Map<string, ErrorObject[]>();
  const top: ErrorObject[] = [];
  for (const error of errors) {
    const combinator = BRANCH.exec(error.schemaPath)?.[1];
    if (combinator === undefined) top.push(error);
    else branches.set(combinator, [...(branches.get(combinator) ?? []), error]);
  }
  const issues: CallIssue[] = [];
  const seen = new Set<string>();
  for (const error of top) {
    const { error_code, path, text, expected } = describe(error, branches.get(error.schemaPath) ?? [], describeGot);
    const message = `${toolName}: ${text}`;
    const key = `${error_code}\u0000${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(
      expected
        ? { call_index: callIndex, tool_name: toolName, path, error_code, message, expected }
        : { call_index: callIndex, tool_name: toolName, path, error_code, message },
    );
  }
  return issues;
}

type Described = { error_code: ErrorCode; path: string; text: string; expected?: CallIssue['expected'] };

function describe(error: ErrorObject, branchErrors: readonly ErrorObject[], describeGot: DescribeGot): Described {
  const path = error.instancePath;
  const got = (): string => describeGot(path, error.data);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const missing = `${path}/${escapePointerSegment(String(params.missingProperty))}`;
      return { error_code: 'missing_required_argument', path: missing, text: `missing required argument ${missing}` };
    }
    case 'type':
      return {
        error_code: 'wrong_argument_type',
        path,
        text: `${subject(path)} must be ${typesOf(params.type)}, got ${got()}`,
        expected: { types: typesOf(params.type).split(' or ') },
      };
    case 'enum':
      return {
        error_code: 'enum_violation',
        path,
        text: `${subject(path)} must be one of ${listValues(params.allowedValues)}, got ${got()}`,
        ...(Array.isArray(params.allowedValues) ? { expected: { allowed: params.allowedValues as unknown[] } } : {}),
      };
    case 'const':
      return { error_code: 'enum_violation', path, text: `${subject(path)} must be ${JSON.stringify(params.allowedValue)}, got ${got()}` };
    case 'additionalProperties': {
      const extra = `${path}/${escapePointerSegment(String(params.additionalProperty))}`;
      return {
        error_code: 'schema_violation',
        path: extra,
        text: `unexpected argument ${extra} (the schema allows no other properties here)`,
      };
    }
    case 'anyOf':
    case 'oneOf':
      return describeCombinator(error, branchErrors, got);
    default:
      return {
        error_code: 'schema_violation',
        path,
        text: `${subject(path)} ${error.message ?? `breaks "${error.keyword}"`}, got ${got()}`,
      };
  }
}

/** An anyOf/oneOf failure, summarised from its branches when they all failed the same simple way at its path. */
function describeCombinator(
  error: ErrorObject,
  branchErrors: readonly ErrorObject[],
  got: () => string,
): { error_code: ErrorCode; path: string; text: string } {
  const path = error.instancePath;
  const simple =
    branchErrors.length > 0 && branchErrors.every((e) => e.instancePath === path && ['type', 'enum', 'const'].includes(e.keyword));
  if (simple) {
    const allowed: string[] = [];
    let valueRule = false;
    for (const e of branchErrors) {
      const params = e.params as Record<string, unknown>;
      if (e.keyword === 'type') allowed.push(typesOf(params.type));
      else {
        valueRule = true;
        allowed.push(e.keyword === 'enum' ? listValues(params.allowedValues) : JSON.stringify(params.allowedValue));
      }
    }
    const error_code: ErrorCode = valueRule ? 'enum_violation' : 'wrong_argument_type';
    return { error_code, path, text: `${subject(path)} must be ${[...new Set(allowed)].join(' or ')}, got ${got()}` };
  }
  const which = error.keyword === 'oneOf' && (error.params as Record<string, unknown>).passingSchemas ? 'exactly one of' : 'one of';
  return {
    error_code: 'schema_violation',
    path,
    text: `${subject(path)} must match ${which} the schemas its ${error.keyword} allows, got ${got()}`,
  };
}

function subject(path: string): string {
  return path === '' ? 'the arguments' : `argument ${path}`;
}

function typesOf(type: unknown): string {
  return Array.isArray(type) ? type.join(' or ') : String(type).split(',').join(' or ');
}

function listValues(values: unknown): string {
  if (!Array.isArray(values)) return JSON.stringify(values);
  const shown = values.slice(0, MAX_ALLOWED_SHOWN).map((v) => JSON.stringify(v));
  return values.length > MAX_ALLOWED_SHOWN ? `${shown.join(', ')}, … (${values.length} values)` : shown.join(', ');
}
