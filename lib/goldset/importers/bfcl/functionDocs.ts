import { isJsonObject, type ToolDefinition } from '../../../domain/index.js';
import type { BfclLanguage } from './category.js';

export interface FieldProblem {
  field: string;
  reason: string;
}

/** One BFCL function doc as written in the question file (only the fields the checker reads). */
export interface BfclFunctionDoc {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export type FunctionDocsResult = { docs: BfclFunctionDoc[]; tools: ToolDefinition[]; notes: FieldProblem[] } | { problems: FieldProblem[] };

/**
 * BFCL type names -> JSON Schema types: BFCL's own GORILLA_TO_OPENAPI table, except `any`, which BFCL turns into
 * `string` and we leave untyped (see README). Types not in the table become `string`, as BFCL's tool conversion does.
 */
const JSON_TYPE: Record<string, string | undefined> = {
  integer: 'integer',
  number: 'number',
  float: 'number',
  string: 'string',
  boolean: 'boolean',
  bool: 'boolean',
  array: 'array',
  list: 'array',
  dict: 'object',
  object: 'object',
  tuple: 'array',
  any: undefined,
  byte: 'integer',
  short: 'integer',
  long: 'integer',
  double: 'number',
  char: 'string',
  ArrayList: 'array',
  Array: 'array',
  HashMap: 'object',
  Hashtable: 'object',
  Queue: 'array',
  Stack: 'array',
  Any: undefined,
  String: 'string',
  Bigint: 'integer',
};

/** JSON Schema keywords kept; others (`format`, `optional`, `pattern`, ...) are ignored by BFCL's checker and dropped. */
const KEPT_NUMBERS = ['minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength'] as const;

/** The function docs of a question (a list, or one object in older files) as tool definitions. */
export function functionDocsToTools(functions: unknown, language: BfclLanguage): FunctionDocsResult {
  const list = Array.isArray(functions) ? functions : isJsonObject(functions) ? [functions] : undefined;
  if (list === undefined) return { problems: [{ field: 'function', reason: 'expected a list of function docs' }] };
  const problems: FieldProblem[] = [];
  const notes: FieldProblem[] = [];
  const docs: BfclFunctionDoc[] = [];
  const tools: ToolDefinition[] = [];
  list.forEach((fn, index) => {
    const field = Array.isArray(functions) ? `function.${index}` : 'function';
    if (!isJsonObject(fn) || typeof fn['name'] !== 'string')
      return void problems.push({ field, reason: 'expected a function doc with a "name"' });
    const parameters = fn['parameters'] ?? { type: 'dict', properties: {} };
    if (!isJsonObject(parameters)) return void problems.push({ field: `${field}.parameters`, reason: 'expected a JSON object' });
    const doc: BfclFunctionDoc = {
      name: fn['name'],
      description: typeof fn['description'] === 'string' ? fn['description'] : '',
      parameters,
    };
    docs.push(doc);
    const shown = language === 'python' ? doc : asSourceTextParameters(doc, language);
    const converted = convertSchema(shown.parameters, `${field}.parameters`, problems, notes);
    tools.push({
      name: doc.name,
      description: shown.description,
      parameters: { ...converted, type: 'object', properties: converted['properties'] ?? {} },
    });
  });
  return problems.length > 0 ? { problems } : { docs, tools, notes };
}

function convertSchema(node: unknown, field: string, problems: FieldProblem[], notes: FieldProblem[]): Record<string, unknown> {
  if (!isJsonObject(node)) {
    problems.push({ field, reason: 'expected a JSON object (a parameter schema)' });
    return {};
  }
  const out: Record<string, unknown> = {};
  const type = node['type'];
  if (typeof type === 'string') {
    const known = Object.hasOwn(JSON_TYPE, type);
    if (!known)
      notes.push({ field: `${field}.type`, reason: `unknown BFCL type "${type}" taken as string (as BFCL's tool conversion does)` });
    const mapped = known ? JSON_TYPE[type] : 'string';
    if (mapped !== undefined) out['type'] = mapped;
  } else if (type !== undefined) problems.push({ field: `${field}.type`, reason: 'expected a type name' });
  if (typeof node['description'] === 'string') out['description'] = node['description'];
  if (Array.isArray(node['enum'])) out['enum'] = node['enum'];
  if (node['default'] !== undefined) out['default'] = node['default'];
  for (const key of KEPT_NUMBERS) if (typeof node[key] === 'number') out[key] = node[key];
  const properties = node['properties'];
  if (isJsonObject(properties)) {
    out['properties'] = Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [name, convertSchema(schema, `${field}.properties.${name}`, problems, notes)]),
    );
  }
  const required = node['required'];
  if (Array.isArray(required) && required.every((r) => typeof r === 'string')) out['required'] = required;
  if (node['items'] !== undefined) out['items'] = convertSchema(node['items'], `${field}.items`, problems, notes);
  const extra = node['additionalProperties'];
  if (typeof extra === 'boolean') out['additionalProperties'] = extra;
  else if (extra !== undefined) out['additionalProperties'] = convertSchema(extra, `${field}.additionalProperties`, problems, notes);
  return out;
}

/**
 * What BFCL shows models for Java and JavaScript docs (its func_doc_language_specific_pre_processing): every top-level
 * parameter becomes a string holding source text, with the original type named in the description.
 */
function asSourceTextParameters(doc: BfclFunctionDoc, language: 'java' | 'javascript'): BfclFunctionDoc {
  const lang = language === 'java' ? 'Java' : 'JavaScript';
  const hint =
    language === 'java'
      ? ' Note that the provided function is in Java 8 SDK syntax.'
      : ' Note that the provided function is in JavaScript syntax.';
  const properties = isJsonObject(doc.parameters['properties']) ? doc.parameters['properties'] : {};
  const rewritten = Object.fromEntries(
    Object.entries(properties).map(([name, raw]) => {
      const schema = isJsonObject(raw) ? raw : {};
      const type = typeof schema['type'] === 'string' ? schema['type'] : 'any';
      let description = typeof schema['description'] === 'string' ? schema['description'] : '';
      description +=
        type === 'any'
          ? ` This parameter can be of any type of ${lang} object in string representation.`
          : ` This is ${lang} ${type} type parameter in string representation.`;
      const items = isJsonObject(schema['items']) ? schema['items'] : undefined;
      if (items && ['ArrayList', 'Array', 'array'].includes(type))
        description += ` The list elements are of type ${String(items['type'])}; they are not in string representation.`;
      if (language === 'javascript' && type === 'dict' && isJsonObject(schema['properties'])) {
        description += ` The dictionary entries have the following schema; they are not in string representation. ${JSON.stringify(schema['properties'])}`;
      }
      const kept = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== 'items' && k !== 'properties'));
      return [name, { ...kept, type: 'string', description }];
    }),
  );
  return { ...doc, description: doc.description + hint, parameters: { ...doc.parameters, properties: rewritten } };
}
