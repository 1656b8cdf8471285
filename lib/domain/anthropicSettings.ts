import { z } from 'zod';
import { SecretRefSchema } from './secretRef.js';

/**
 * Claude through the Anthropic Messages API, at any Anthropic-compatible base URL: Anthropic itself
 * (`https://api.anthropic.com`, the default) or Claude models on Azure AI Foundry
 * (`https://<resource>.services.ai.azure.com/anthropic`).
 */
export const AnthropicTargetSettingsSchema = z
  .object({
    kind: z.literal('anthropic'),
    base_url: z.string().url().optional(),
    /** the model id (`claude-…`) or the Foundry deployment name */
    model: z.string().min(1),
    api_key: SecretRefSchema.optional(),
    /** the header the key is sent in: `x-api-key` (Anthropic, Foundry), `api-key` (some gateways) or `authorization` (Bearer) */
    api_key_header: z.enum(['x-api-key', 'api-key', 'authorization']).default('x-api-key'),
    /** the `anthropic-version` header (default: the SDK's) */
    anthropic_version: z.string().optional(),
    system_prompt: z.string().optional(),
    temperature: z.number().min(0).max(1).optional(),
    /** the Messages API requires a cap on output tokens per request */
    max_tokens: z.number().int().positive().default(1024),
    /** execute the model's tool_use blocks through the tool executor and send tool_result back until it answers */
    agentic_loop: z
      .object({ enabled: z.boolean().default(false), max_turns: z.number().int().min(1).max(20).default(5) })
      .strict()
      .optional(),
    /** mark the system prompt and tools as a prompt-cache prefix (`cache_control: ephemeral`) */
    prompt_caching: z.boolean().default(false),
    /**
     * USD per million tokens. Cache writes default to 1.25x and cache reads to 0.1x the input price (Anthropic's
     * published multipliers for the 5-minute cache) unless given.
     */
    pricing: z
      .object({
        input_per_mtok: z.number().nonnegative(),
        output_per_mtok: z.number().nonnegative(),
        cache_write_per_mtok: z.number().nonnegative().optional(),
        cache_read_per_mtok: z.number().nonnegative().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type AnthropicTargetSettings = z.infer<typeof AnthropicTargetSettingsSchema>;
