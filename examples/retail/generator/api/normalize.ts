import type { JsonObject, JsonValue } from '../../../../lib/domain/index.js';
import { validateCalls } from '../../../../lib/evaluation/syntax/index.js';
import { RETAIL_CATALOG } from '../catalog.js';
import type { ApiCall, NormalizedArgs } from './types.js';

type Schema = Record<string, unknown>;

/**
 * What the API does before its handler runs. Like most JSON APIs (and every GET, whose arguments travel as query
 * strings) it reads decimal strings ("25.50") as numbers and enum values case-insensitively; then it validates the
 * request against the tool's schema (a bad request is a 400 naming the problem) and fills in schema defaults.
 */
export function normalizeRequest(call: ApiCall): { ok: true; args: NormalizedArgs } | { ok: false; message: string } {
  const tool = RETAIL_CATALOG.tools.find((t) => t.name === call.tool_name)!;
  const parameters = tool.parameters as Schema;
  const lenient = readLeniently(call.arguments, parameters) as JsonObject;
  const issues = validateCalls([{ tool_name: call.tool_name, arguments: lenient }], RETAIL_CATALOG);
  if (issues.length > 0) {
    const problems = issues.map((i) => `${i.path.slice(1).replaceAll('/', '.') || 'body'}: ${i.error_code.replaceAll('_', ' ')}`);
    return { ok: false, message: `Invalid request (${problems.join('; ')}).` };
  }
  const properties = (parameters['properties'] ?? {}) as Record<string, Schema>;
  const args: Record<string, JsonValue | undefined> = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (lenient[name] !== undefined) args[name] = lenient[name];
    else if ('default' in schema) args[name] = schema['default'] as JsonValue;
  }
  return { ok: true, args };
}

function types(schema: Schema): unknown[] {
  return Array.isArray(schema['type']) ? (schema['type'] as unknown[]) : [schema['type']];
}

function readLeniently(value: JsonValue, schema: Schema | undefined): JsonValue {
  if (!schema) return value;
  if (typeof value === 'string') {
    const t = types(schema);
    if ((t.includes('number') || t.includes('integer')) && /^-?[0-9]+(\.[0-9]+)?$/.test(value.trim())) return Number(value);
    const options = schema['enum'];
    if (Array.isArray(options))
      return options.find((o) => typeof o === 'string' && o.toLowerCase() === value.trim().toLowerCase()) ?? value;
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => readLeniently(v, schema['items'] as Schema | undefined));
  if (value !== null && typeof value === 'object') {
    const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, readLeniently(v, properties[k])]));
  }
  return value;
}
