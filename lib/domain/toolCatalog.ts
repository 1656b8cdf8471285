import { z } from 'zod';

/** A JSON Schema object (draft 2020-12 subset used by function calling). Validated by ajv at use. */
export const JsonSchemaObjectSchema = z.record(z.string(), z.unknown());

/** One tool definition, in the shape OpenAI and Anthropic both accept (`parameters` = `input_schema`). */
export const ToolDefinitionSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'tool names are 1-128 chars of letters, digits, _ . -'),
    description: z.string().default(''),
    parameters: JsonSchemaObjectSchema.default({ type: 'object', properties: {} }),
    /** Stage 3: this tool's own timeout for a live call (ms), overriding the run's (a slow report endpoint, a fast lookup). */
    timeout_ms: z.number().int().min(1).max(600_000).optional(),
    /** Stage 3 HTTP mapping for the live provider (optional). */
    http: z
      .object({
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
        /** Path template; `{arg}` is replaced by the URL-encoded argument. */
        path: z.string().min(1),
        /** Arguments sent as query parameters (default: every argument not used in the path, for GET/DELETE). */
        query: z.array(z.string()).optional(),
        /** Arguments sent in the JSON body (default: every argument not used in the path, for POST/PUT/PATCH). */
        body: z.array(z.string()).optional(),
        /** Timeout of this HTTP call (ms); wins over the tool's `timeout_ms` and the run's. */
        timeout_ms: z.number().int().min(1).max(600_000).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;

export const ToolCatalogSchema = z
  .object({
    name: z.string().min(1),
    tool_schema_version: z.string().min(1),
    description: z.string().optional(),
    tools: z.array(ToolDefinitionSchema),
  })
  .strict()
  .superRefine((cat, ctx) => {
    const seen = new Set<string>();
    cat.tools.forEach((t, i) => {
      if (seen.has(t.name)) ctx.addIssue({ code: 'custom', path: ['tools', i, 'name'], message: `duplicate tool name "${t.name}"` });
      seen.add(t.name);
    });
  });
export type ToolCatalog = z.infer<typeof ToolCatalogSchema>;
