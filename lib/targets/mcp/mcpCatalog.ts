import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { canonicalJson, ToolCatalogSchema, type ToolCatalog } from '../../domain/index.js';

/**
 * The tool list of a target's MCP servers as a versioned ToolCatalog: named `mcp-<server>[+<server>...]`, version
 * `sha256:<first 16 hex>` of the canonical JSON of what the model is offered (name, description, input schema of
 * every tool, in server order). The same list always gives the same version; any change gives another, so stage 1
 * validates against exactly what the model saw and a changed list shows as a new catalog version.
 */
export function catalogFromMcpTools(servers: ReadonlyArray<{ name: string; tools: readonly Tool[] }>): ToolCatalog {
  const tools = servers.flatMap((server) =>
    server.tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? tool.title ?? '',
      parameters: withoutSchemaKeyword(tool.inputSchema as Record<string, unknown>),
    })),
  );
  const version = `sha256:${createHash('sha256').update(canonicalJson(tools)).digest('hex').slice(0, 16)}`;
  const name = `mcp-${servers.map((s) => s.name).join('+')}`;
  const parsed = ToolCatalogSchema.safeParse({
    name,
    tool_schema_version: version,
    description: `tools listed by MCP server(s) ${servers.map((s) => s.name).join(', ')}`,
    tools,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const index = typeof issue.path[1] === 'number' ? issue.path[1] : undefined;
    const tool = index === undefined ? '' : ` (tool "${tools[index]?.name}")`;
    throw new Error(`the MCP tool list cannot be used as a tool catalog${tool}: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** `$schema` says which draft a server wrote; the catalog's validator uses its own, so the keyword is dropped. */
function withoutSchemaKeyword(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
