import type { AnthropicTargetSettings, ToolCatalog } from '../../domain/index.js';
import type { LoopCall } from '../toolLoop/toolLoop.js';
import type { ToolNameMap } from '../openai/toolNames.js';

export type Fields = Record<string, unknown>;

export function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One Messages API answer, read defensively (a compatible endpoint may answer anything). */
export interface MessageReading {
  /** the `content` blocks as received ([] when missing) */
  content: unknown[];
  /** the text blocks joined with newlines, null when none */
  text: string | null;
  /** the tool_use blocks (names mapped back to catalog names) */
  calls: LoopCall[];
  /** all prompt tokens: uncached + written to the cache + read from it */
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  model: string | null;
}

export function readMessage(message: Fields, names: ToolNameMap): MessageReading {
  const content = Array.isArray(message.content) ? (message.content as unknown[]) : [];
  const texts: string[] = [];
  const calls: LoopCall[] = [];
  for (const block of content) {
    if (!isFields(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    if (block.type === 'tool_use' && typeof block.name === 'string') {
      calls.push({ id: typeof block.id === 'string' ? block.id : '', name: names.fromWire(block.name), arguments: block.input });
    }
  }
  const usage = isFields(message.usage) ? message.usage : {};
  const uncached = count(usage.input_tokens);
  const cacheCreationTokens = count(usage.cache_creation_input_tokens);
  const cacheReadTokens = count(usage.cache_read_input_tokens);
  return {
    content,
    text: texts.length > 0 ? texts.join('\n') : null,
    calls,
    inputTokens: uncached + cacheCreationTokens + cacheReadTokens,
    outputTokens: count(usage.output_tokens),
    cacheCreationTokens,
    cacheReadTokens,
    model: typeof message.model === 'string' && message.model !== '' ? message.model : null,
  };
}

/**
 * USD for one answer: uncached input, cache writes and cache reads at their own rates (defaults 1.25x and 0.1x the
 * input price, Anthropic's published multipliers for the 5-minute cache), output at the output price; 0 without pricing.
 */
export function messageCost(reading: MessageReading, pricing: AnthropicTargetSettings['pricing']): number {
  if (!pricing) return 0;
  const uncached = reading.inputTokens - reading.cacheCreationTokens - reading.cacheReadTokens;
  const write = pricing.cache_write_per_mtok ?? pricing.input_per_mtok * 1.25;
  const read = pricing.cache_read_per_mtok ?? pricing.input_per_mtok * 0.1;
  return (
    (uncached * pricing.input_per_mtok +
      reading.cacheCreationTokens * write +
      reading.cacheReadTokens * read +
      reading.outputTokens * pricing.output_per_mtok) /
    1_000_000
  );
}

/** The catalog's tools as Messages API `tools` (wire names; the last one marks the cache prefix when caching). */
export function anthropicTools(catalog: ToolCatalog | undefined, names: ToolNameMap, promptCaching: boolean): Fields[] {
  if (!catalog) return [];
  const tools: Fields[] = catalog.tools.map((tool) => ({
    name: names.toWire(tool.name),
    ...(tool.description ? { description: tool.description } : {}),
    input_schema: tool.parameters,
  }));
  if (promptCaching && tools.length > 0) tools[tools.length - 1] = { ...tools[tools.length - 1], cache_control: { type: 'ephemeral' } };
  return tools;
}

/** The system prompt as the request's `system` (a cached text block when caching). */
export function systemParam(settings: AnthropicTargetSettings): string | Fields[] | undefined {
  if (!settings.system_prompt) return undefined;
  if (!settings.prompt_caching) return settings.system_prompt;
  return [{ type: 'text', text: settings.system_prompt, cache_control: { type: 'ephemeral' } }];
}

/**
 * The invocation's output for stage 1: an Anthropic assistant message whose content is the last answer's text blocks
 * followed by EVERY tool_use of every turn in order (catalog names), so stages 1-2 score all calls made and
 * stage 4 the final answer.
 */
export function outputMessage(last: Fields, lastContent: unknown[], calls: readonly LoopCall[]): Fields {
  const text = lastContent.filter((block) => isFields(block) && block.type === 'text');
  const toolUses = calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments }));
  const { content: _content, usage: _usage, ...rest } = last;
  return { ...rest, role: 'assistant', content: [...text, ...toolUses] };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0;
}
