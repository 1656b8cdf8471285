import type { ToolCatalog } from '../../domain/index.js';
import type { JsonSchema } from '../match/index.js';

const byCatalog = new WeakMap<ToolCatalog, ReadonlyMap<string, JsonSchema>>();

/** Each tool's `parameters` schema by tool name; built once per catalog object and cached. */
export function toolParameterSchemas(catalog: ToolCatalog): ReadonlyMap<string, JsonSchema> {
  let schemas = byCatalog.get(catalog);
  if (schemas === undefined) {
    schemas = new Map(catalog.tools.map((tool) => [tool.name, tool.parameters as JsonSchema]));
    byCatalog.set(catalog, schemas);
  }
  return schemas;
}
