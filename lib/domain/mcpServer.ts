import { z } from 'zod';
import { SecretRefSchema } from './secretRef.js';

/** A value written in the config or read from a secret at use (`{"env": "NAME"}`, `{"keyvault": "name"}`). */
const ValueOrSecretSchema = z.union([z.string(), SecretRefSchema]);

const McpServerCommonShape = {
  /** names the server on the target (tool catalogs are named after it: `mcp-<name>`) */
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a server name: 1-64 letters, digits, _ . -'),
  /** one tool call longer than this is a target timeout (the server hung), never a model failure */
  call_timeout_ms: z.number().int().positive().default(30_000),
  /** starting the server and listing its tools longer than this is a target error */
  connect_timeout_ms: z.number().int().positive().default(20_000),
};

/** An MCP server the platform spawns and talks to over stdin/stdout (one process per worker, reused across cases). */
export const McpStdioServerSchema = z
  .object({
    ...McpServerCommonShape,
    transport: z.literal('stdio'),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    /** extra environment for the process (values may be secret references); PATH and HOME are inherited */
    env: z.record(z.string(), ValueOrSecretSchema).default({}),
    /** working directory (default: the platform's) */
    cwd: z.string().optional(),
  })
  .strict();

/** A remote MCP server over Streamable HTTP; header values may be secret references. */
export const McpHttpServerSchema = z
  .object({
    ...McpServerCommonShape,
    transport: z.literal('http'),
    url: z.string().url(),
    headers: z.record(z.string(), ValueOrSecretSchema).default({}),
  })
  .strict();

export const McpServerSchema = z.discriminatedUnion('transport', [McpStdioServerSchema, McpHttpServerSchema]);
export type McpServer = z.infer<typeof McpServerSchema>;
export type McpStdioServer = z.infer<typeof McpStdioServerSchema>;
export type McpHttpServer = z.infer<typeof McpHttpServerSchema>;

/** The MCP servers of a target: names unique. */
export const McpServersSchema = z.array(McpServerSchema).superRefine((servers, ctx) => {
  const seen = new Set<string>();
  servers.forEach((server, i) => {
    if (seen.has(server.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate MCP server name "${server.name}"` });
    seen.add(server.name);
  });
});
