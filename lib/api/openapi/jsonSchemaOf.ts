import { createHash } from 'node:crypto';
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** Shared definitions hoisted out of embedded schemas into `components.schemas`, deduplicated by content. */
export type SchemaComponents = Map<string, JsonSchema>;

/**
 * The JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a zod schema: as a client must send it (`io: 'input'`,
 * so defaults make a field optional and transforms show their input type) or as the server answers (`'output'`).
 * Parts JSON Schema cannot express (refinements, custom checks) are left open rather than failing the document;
 * the server still enforces them. Recursive parts (JSON values) come out of zod as local `$defs`, which an
 * embedded schema in an OpenAPI document cannot refer to: with `components` they move there, named by content.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input', components?: SchemaComponents): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  if (!defs || !components) return json;
  delete json.$defs;
  const names = new Map(
    Object.entries(defs).map(([key, def]) => [
      key,
      key.startsWith('__') ? `Def_${createHash('sha1').update(JSON.stringify(def)).digest('hex').slice(0, 10)}` : key,
    ]),
  );
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const local = k === '$ref' && typeof v === 'string' ? /^#\/\$defs\/(.+)$/.exec(v)?.[1] : undefined;
      out[k] = local !== undefined && names.has(local) ? `#/components/schemas/${names.get(local)}` : rewrite(v);
    }
    return out;
  };
  for (const [key, def] of Object.entries(defs)) components.set(names.get(key)!, rewrite(def) as JsonSchema);
  return rewrite(json) as JsonSchema;
}

/** The properties of an object schema (path or query parameters), with which of them are required. */
export function objectProperties(
  schema: z.ZodType,
  components?: SchemaComponents,
): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const json = jsonSchemaOf(schema, 'input', components);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return { properties, required };
}
