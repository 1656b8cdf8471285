import { ToolCatalogSchema, contentHash, type ToolCatalog, type ToolDefinition } from '../../../domain/index.js';
import type { FieldProblem } from './functionDocs.js';

export const BFCL_TOOL_SCHEMA_VERSION = '1';

/**
 * One ToolCatalog per distinct set of tool definitions, named `bfcl-<first 12 hex of the content hash of the tools>`:
 * the same function docs (after conversion) always give the same name, and a name never stands for two contents.
 * Each distinct set is validated once (ToolCatalogSchema) and cached.
 */
export class BfclCatalogs {
  private readonly byHash = new Map<string, { catalog: ToolCatalog } | { problems: FieldProblem[] }>();

  catalogFor(tools: ToolDefinition[]): { catalog: ToolCatalog } | { problems: FieldProblem[] } {
    const hash = contentHash(tools);
    const cached = this.byHash.get(hash);
    if (cached !== undefined) return cached;
    const parsed = ToolCatalogSchema.safeParse({
      name: `bfcl-${hash.slice(0, 12)}`,
      tool_schema_version: BFCL_TOOL_SCHEMA_VERSION,
      description: 'Function docs of a BFCL question file, converted to JSON Schema',
      tools,
    });
    const result = parsed.success
      ? { catalog: parsed.data }
      : // ToolCatalog paths (`tools.0.name`) name the BFCL doc (`function.0.name`)
        { problems: parsed.error.issues.map((i) => ({ field: ['function', ...i.path.slice(1)].join('.'), reason: i.message })) };
    this.byHash.set(hash, result);
    return result;
  }
}
