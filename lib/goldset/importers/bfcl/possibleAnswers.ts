import { canonicalJson, isJsonObject, type ExpectedToolCall, type ExpectedValue } from '../../../domain/index.js';
import type { BfclFunctionDoc, FieldProblem } from './functionDocs.js';

/** One expected call of BFCL's ground truth: the function and, per parameter, the list of acceptable values. */
export interface GroundTruthCall {
  name: string;
  params: Record<string, unknown[]>;
  /** Path of the call in the answer line, e.g. `ground_truth.0.math.factorial`. */
  field: string;
}

/**
 * The calls of a `ground_truth`: a list of `{function: {param: [values]}}` (current files) or one such object
 * (older files). An object with several functions stands for several calls, in key order.
 */
export function groundTruthCalls(groundTruth: unknown): { calls: GroundTruthCall[] } | { problems: FieldProblem[] } {
  const entries: [unknown, string][] = Array.isArray(groundTruth)
    ? groundTruth.map((item, index) => [item, `ground_truth.${index}`])
    : [[groundTruth, 'ground_truth']];
  const calls: GroundTruthCall[] = [];
  const problems: FieldProblem[] = [];
  for (const [item, field] of entries) {
    if (!isJsonObject(item) || Object.keys(item).length === 0) {
      problems.push({ field, reason: 'expected {"<function name>": {"<parameter>": [acceptable values]}}' });
      continue;
    }
    for (const [name, params] of Object.entries(item)) {
      const callField = `${field}.${name}`;
      if (!isJsonObject(params)) {
        problems.push({ field: callField, reason: 'expected an object of parameter -> list of acceptable values' });
        continue;
      }
      const lists: Record<string, unknown[]> = {};
      for (const [param, values] of Object.entries(params)) {
        if (Array.isArray(values)) lists[param] = values;
        else problems.push({ field: `${callField}.${param}`, reason: 'expected a list of acceptable values' });
      }
      calls.push({ name, params: lists, field: callField });
    }
  }
  return problems.length > 0 ? { problems } : { calls };
}

/** How BFCL's checker reads a parameter's answers: dict answers and lists of dicts hold per-key value lists. */
type Shape = 'dict' | 'list_of_dict' | 'literal' | 'unknown';

const DICT_TYPES = new Set(['dict', 'object', 'HashMap', 'Hashtable']);
const LIST_TYPES = new Set(['array', 'list', 'tuple', 'ArrayList', 'Array', 'Queue', 'Stack']);

/**
 * One ground-truth call as an expected call. Per parameter, BFCL's list of acceptable values becomes: one value ->
 * that value; several -> `{ $one_of }`; a list containing "" -> `{ $optional: true, $one_of: <the others> }`
 * (`[""]` alone -> `{ $optional: true, $one_of: [""] }`: omit it, or pass "" as BFCL also accepts). Dict answers are
 * BFCL's nested form (each key its own list) and become objects of per-key expectations; lists of dicts likewise.
 */
export function toExpectedCall(
  call: GroundTruthCall,
  doc: BfclFunctionDoc | undefined,
): { call: ExpectedToolCall; notes: FieldProblem[] } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const notes: FieldProblem[] = [];
  const properties = doc && isJsonObject(doc.parameters['properties']) ? doc.parameters['properties'] : undefined;
  const args: Record<string, ExpectedValue> = {};
  for (const [param, values] of Object.entries(call.params)) {
    const schema = properties?.[param];
    if (properties && schema === undefined) {
      notes.push({
        field: `${call.field}.${param}`,
        reason: 'is not declared in the function docs (BFCL passes this case only when it is optional and omitted)',
      });
    }
    const value = expectedFromList(values, shapeOf(schema), `${call.field}.${param}`, problems);
    if (value !== undefined) args[param] = value;
  }
  return problems.length > 0 ? { problems } : { call: { tool_name: call.name, arguments: args }, notes };
}

function expectedFromList(values: unknown[], shape: Shape, field: string, problems: FieldProblem[]): ExpectedValue | undefined {
  const optional = values.includes('');
  const options = dedupe(values.filter((v) => v !== '').map((v) => fromOption(v, shape, field, problems)));
  if (optional) return { $optional: true, $one_of: options.length > 0 ? options : [''] };
  if (options.length === 0) {
    problems.push({ field, reason: 'the list of acceptable values is empty' });
    return undefined;
  }
  return options.length === 1 ? options[0] : { $one_of: options };
}

function fromOption(value: unknown, shape: Shape, field: string, problems: FieldProblem[]): ExpectedValue {
  if ((shape === 'dict' || shape === 'unknown') && isNestedForm(value)) return nestedDict(value, field, problems);
  if (shape === 'list_of_dict' && Array.isArray(value)) {
    return value.map((item: unknown) => (isNestedForm(item) ? nestedDict(item, field, problems) : (item as ExpectedValue)));
  }
  return value as ExpectedValue;
}

/** `{k: [values]}` -> `{k: <expectation>}`; one level deep, as BFCL's dict_checker. */
function nestedDict(value: Record<string, unknown[]>, field: string, problems: FieldProblem[]): ExpectedValue {
  const out: Record<string, ExpectedValue> = {};
  for (const [key, list] of Object.entries(value)) {
    const expected = expectedFromList(list, 'literal', `${field}.${key}`, problems);
    if (expected !== undefined) out[key] = expected;
  }
  return out;
}

function isNestedForm(value: unknown): value is Record<string, unknown[]> {
  if (!isJsonObject(value)) return false;
  const lists = Object.values(value);
  return lists.length > 0 && lists.every(Array.isArray);
}

function shapeOf(schema: unknown): Shape {
  if (!isJsonObject(schema) || typeof schema['type'] !== 'string') return 'unknown';
  if (DICT_TYPES.has(schema['type'])) return 'dict';
  const items = schema['items'];
  if (LIST_TYPES.has(schema['type']) && isJsonObject(items) && typeof items['type'] === 'string' && DICT_TYPES.has(items['type']))
    return 'list_of_dict';
  return 'literal';
}

function dedupe(values: ExpectedValue[]): ExpectedValue[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = canonicalJson(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
