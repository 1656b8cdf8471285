import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { JsonObject, JsonValue, ToolCatalog } from '../../lib/domain/index.js';
import { MCP_SESSION_META_KEY } from '../../lib/targets/index.js';
import { RetailApi } from './retailApi.js';

export const SERVER_INFO = { name: 'retail-mcp', version: '1.0.0' };

/** What the server serves: a catalog and a call answering with a status and JSON (RetailApi, or an environment: environmentTools.ts). */
export interface RetailTools {
  readonly catalog: ToolCatalog;
  /** `session`: the conversation the call belongs to (the request's `_meta[MCP_SESSION_META_KEY]`), when the client sent one */
  call(toolName: string, args: JsonObject, session?: string): { status: number; data: JsonValue };
}

/**
 * An MCP server (the SDK's McpServer) offering the 14 retail tools with the catalog's JSON Schemas (read into zod by
 * `z.fromJSONSchema`, so the server validates arguments and lists the same schemas). A call answers with the API's
 * JSON as text and as structuredContent; a non-2xx answer (404 unknown id, 400 bad arguments, 409/422 business rules)
 * is a tool error (`isError`) carrying the status and the API's error body, as a live API would answer.
 */
export function createRetailMcpServer(api: RetailTools = new RetailApi()): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: { listChanged: true } } });
  for (const tool of api.catalog.tools) {
    const inputSchema = z.fromJSONSchema(tool.parameters as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodObject;
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema },
      (args: Record<string, unknown>, extra): CallToolResult => {
        const session = extra._meta?.[MCP_SESSION_META_KEY];
        const answer = api.call(tool.name, args as JsonObject, typeof session === 'string' ? session : undefined);
        const body = answer.status >= 200 && answer.status < 300 ? answer.data : { status: answer.status, error: answer.data };
        return {
          content: [{ type: 'text', text: JSON.stringify(body) }],
          ...(answer.status >= 200 && answer.status < 300 && isObject(answer.data) ? { structuredContent: answer.data } : {}),
          ...(answer.status >= 300 ? { isError: true } : {}),
        };
      },
    );
  }
  return server;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
