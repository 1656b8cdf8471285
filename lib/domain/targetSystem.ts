import { z } from 'zod';
import { OrganizationFieldSchema } from './organization.js';
import { ToolCatalogRefSchema } from './testCase.js';
import { SecretRefSchema } from './secretRef.js';
import { AnthropicTargetSettingsSchema } from './anthropicSettings.js';
import { McpServersSchema } from './mcpServer.js';
import { EvalModeSchema } from './evalMode.js';
import { EntityOwnerSchema } from './entityOwner.js';

export { SecretRefSchema, type SecretRef } from './secretRef.js';
export * from './anthropicSettings.js';
export * from './mcpServer.js';

export const ReplayTargetSettingsSchema = z
  .object({
    kind: z.literal('replay'),
    /** JSONL of {"test_case_id", "output", "latency_ms"?, "input_tokens"?, "output_tokens"?, "cost_usd"?} */
    outputs_path: z.string().min(1),
  })
  .strict();

export const OpenAITargetSettingsSchema = z
  .object({
    kind: z.literal('openai'),
    /** OpenAI-compatible base URL; for Azure OpenAI the resource endpoint (https://<name>.openai.azure.com) */
    base_url: z.string().url().optional(),
    azure: z.boolean().default(false),
    /** model name (OpenAI) or deployment name (Azure OpenAI) */
    model: z.string().min(1),
    api_version: z.string().optional(),
    api_key: SecretRefSchema.optional(),
    system_prompt: z.string().optional(),
    temperature: z.number().min(0).max(2).optional(),
    /** execute the model's tool calls through stage-3 providers and feed results back until it answers */
    agentic_loop: z
      .object({ enabled: z.boolean().default(false), max_turns: z.number().int().min(1).max(20).default(5) })
      .strict()
      .optional(),
    /** USD per million tokens, for cost accounting */
    pricing: z.object({ input_per_mtok: z.number().nonnegative(), output_per_mtok: z.number().nonnegative() }).strict().optional(),
  })
  .strict();

export const HttpTargetSettingsSchema = z
  .object({
    kind: z.literal('http'),
    url: z.string().url(),
    method: z.enum(['POST', 'PUT', 'GET']).default('POST'),
    /** header values may reference secrets: {"Authorization": {"env": "AGENT_TOKEN"}} */
    headers: z.record(z.string(), z.union([z.string(), SecretRefSchema])).default({}),
    /** request body template; `{{question}}` (JSON-escaped) and `{{test_case_id}}` are substituted */
    request_template: z.string().default('{"question": {{question}}}'),
    /** JSONPath expressions into the response */
    response: z
      .object({
        answer_path: z.string().default('$.answer'),
        tool_calls_path: z.string().optional(),
        agent_path: z.string().optional(),
        reason_path: z.string().optional(),
        /** the entities the agent resolved (an object), scored in orchestrator mode against `expected_entities` */
        entities_path: z.string().optional(),
        /** usage the agent reports, so custom orchestrators are not $0 in cost comparisons */
        input_tokens_path: z.string().optional(),
        output_tokens_path: z.string().optional(),
        cost_path: z.string().optional(),
        /** the model the agent reports (the scorecard's client_version) */
        model_path: z.string().optional(),
      })
      .strict()
      .default({ answer_path: '$.answer' }),
  })
  .strict();

export const TargetSettingsSchema = z.discriminatedUnion('kind', [
  ReplayTargetSettingsSchema,
  OpenAITargetSettingsSchema,
  HttpTargetSettingsSchema,
  AnthropicTargetSettingsSchema,
]);
export type TargetSettings = z.infer<typeof TargetSettingsSchema>;
export type TargetKind = TargetSettings['kind'];

export const TargetSystemSchema = z
  .object({
    id: z.string().min(1),
    /** the owning organization, stamped by the organization-scoped stores (absent: `default`) */
    organization: OrganizationFieldSchema,
    name: z.string().min(1),
    settings: TargetSettingsSchema,
    tool_catalog: ToolCatalogRefSchema.optional(),
    /** MCP servers whose tools an `openai` or `anthropic` target offers its model (and executes its calls on) */
    mcp_servers: McpServersSchema.optional(),
    /** the end-user client this target represents: `openai-tools`, `claude-mcp`, `chatgpt`, `custom-orchestrator`, ... */
    client_type: z.string().default('custom'),
    /** how the client's agent is evaluated (lib/domain/evalMode.ts); absent: calls and answer as they are */
    eval_mode: EvalModeSchema.optional(),
    client_version: z.string().optional(),
    timeout_ms: z.number().int().positive().default(30_000),
    max_retries: z.number().int().min(0).max(10).default(3),
    rate_limit: z
      .object({ requests_per_second: z.number().positive().default(50), max_in_flight: z.number().int().positive().default(16) })
      .strict()
      .default({ requests_per_second: 50, max_in_flight: 16 }),
    /** set on a target that exists for another resource (an /api/evaluate job): hidden from ordinary lists, deleted with it */
    owner: EntityOwnerSchema.optional(),
    created_at: z.iso.datetime({ offset: true }),
    updated_at: z.iso.datetime({ offset: true }),
  })
  .strict();
export type TargetSystem = z.infer<typeof TargetSystemSchema>;
