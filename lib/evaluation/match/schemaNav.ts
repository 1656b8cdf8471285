/** A JSON Schema object (the subset function calling uses), as found in a tool's `parameters`. */
export type JsonSchema = Readonly<Record<string, unknown>>;

const hasOwn = Object.prototype.hasOwnProperty;

function asSchema(value: unknown): JsonSchema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined;
}

/** The schema of property `key`: `properties[key]`, else an object-valued `additionalProperties`. */
export function propertySchema(schema: JsonSchema | undefined, key: string): JsonSchema | undefined {
  if (schema === undefined) return undefined;
  const properties = asSchema(schema['properties']);
  if (properties !== undefined && hasOwn.call(properties, key)) return asSchema(properties[key]);
  return asSchema(schema['additionalProperties']);
}

/** The schema of array element `index`: `prefixItems[index]`, else an object-valued `items`. */
export function itemSchema(schema: JsonSchema | undefined, index: number): JsonSchema | undefined {
  if (schema === undefined) return undefined;
  const prefix = schema['prefixItems'];
  if (Array.isArray(prefix) && index < prefix.length) return asSchema(prefix[index]);
  return asSchema(schema['items']);
}

/** `integer` or `number` when the schema's `type` names exactly one of them (alone or with other types). */
export function numericType(schema: JsonSchema | undefined): 'integer' | 'number' | undefined {
  if (schema === undefined) return undefined;
  const type = schema['type'];
  if (type === 'integer' || type === 'number') return type;
  if (Array.isArray(type)) {
    const integer = type.includes('integer');
    const number = type.includes('number');
    if (integer !== number) return integer ? 'integer' : 'number';
  }
  return undefined;
}

/** The schema enumerates its values (`enum`). */
export function hasEnum(schema: JsonSchema | undefined): boolean {
  return schema !== undefined && Array.isArray(schema['enum']);
}

/** An array schema whose order does not matter: `"x-unordered": true` or `uniqueItems: true`. */
export function isUnorderedArraySchema(schema: JsonSchema | undefined): boolean {
  return schema !== undefined && (schema['x-unordered'] === true || schema['uniqueItems'] === true);
}

/** Marker for "the schema declares no default" (a default may itself be `null`). */
export const NO_DEFAULT: unique symbol = Symbol('no default');

/** The schema's declared `default`, or NO_DEFAULT. */
export function schemaDefault(schema: JsonSchema | undefined): unknown {
  return schema !== undefined && hasOwn.call(schema, 'default') ? schema['default'] : NO_DEFAULT;
}
