import { isMatcherObject, type JsonValue } from '../../../../lib/domain/index.js';
import { argumentSchema } from '../catalog.js';
import type { Call, CaseSpec } from '../scenarios/types.js';

/** One argument of one of a case's calls whose expected value is plain (no matcher): a place a mistake can go. */
export interface ArgumentSlot {
  call: number;
  name: string;
  value: JsonValue;
  schema: Record<string, unknown>;
}

export function argumentSlots(spec: CaseSpec): ArgumentSlot[] {
  const slots: ArgumentSlot[] = [];
  spec.calls.forEach((c, i) => {
    const expected = spec.expected?.[i]?.arguments ?? c.arguments;
    for (const [name, value] of Object.entries(c.arguments)) {
      const schema = argumentSchema(c.tool_name, name);
      if (schema && name in expected && !isMatcherObject(expected[name])) slots.push({ call: i, name, value, schema });
    }
  });
  return slots;
}

/** The case's calls with one argument of one call replaced (undefined removes it). */
export function replaceArgument(spec: CaseSpec, callIndex: number, name: string, value: JsonValue | undefined): Call[] {
  return spec.calls.map((c, i) => {
    if (i !== callIndex) return c;
    const args = { ...c.arguments };
    if (value === undefined) delete args[name];
    else args[name] = value;
    return { tool_name: c.tool_name, arguments: args };
  });
}

export function schemaTypes(schema: Record<string, unknown>): string[] {
  const t = schema['type'];
  return Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
}
