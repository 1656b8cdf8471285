import { ToolCatalogSchema, type ToolCatalog } from '../../domain/index.js';

/**
 * Reads a tool catalog from parsed JSON in any of the shapes teams already have:
 * - a native ToolCatalog `{ name, tool_schema_version, tools: [...] }`;
 * - an OpenAI `tools` array `[{ type: 'function', function: { name, description, parameters } }]`;
 * - an Anthropic tools array `[{ name, description, input_schema }]`;
 * - a plain array of `{ name, description, parameters }`.
 * Throws a ZodError naming the failing field when the result is not a valid catalog.
 */
export function parseToolCatalog(json: unknown, fallbackName = 'catalog'): ToolCatalog {
  if (Array.isArray(json)) {
    return ToolCatalogSchema.parse({ name: fallbackName, tool_schema_version: '1', tools: json.map(normaliseTool) });
  }
  return ToolCatalogSchema.parse(json);
}

function normaliseTool(tool: unknown): unknown {
  if (typeof tool !== 'object' || tool === null) return tool;
  const t = tool as Record<string, unknown>;
  if (t.type === 'function' && typeof t.function === 'object' && t.function !== null) {
    const f = t.function as Record<string, unknown>;
    return { name: f.name, description: f.description ?? '', parameters: f.parameters ?? { type: 'object', properties: {} } };
  }
  if ('input_schema' in t) return { name: t.name, description: t.description ?? '', parameters: t.input_schema };
  return tool;
}
