import { describeValue } from '../describeValue.js';
import { parseFailure, type ParseFailure } from '../outcome.js';
import type { CallLocation, Extraction } from '../rawCall.js';
import { ANTHROPIC_BLOCK_TYPES, extractAnthropicBlocks, extractAnthropicMessage } from './anthropic.js';
import { isFields, keyList } from './fields.js';
import { extractJsonCalls, jsonCall, looksLikeJsonCall } from './jsonCalls.js';
import { extractChatCompletion, extractChatMessage } from './openaiChat.js';
import { RESPONSES_ITEM_TYPES, extractResponse, extractResponseItems } from './openaiResponses.js';

const SINGLE: CallLocation = { label: 'the call', single: true, itemPointer: () => '' };
const atIndex = (i: number): string => `/${i}`;
const LIST: CallLocation = { label: 'list', itemPointer: atIndex };
const CONTENT_LIST: CallLocation = { label: 'content', itemPointer: atIndex };
const OUTPUT_LIST: CallLocation = { label: 'output', itemPointer: atIndex };
const TOOL_CALLS: CallLocation = { label: 'tool_calls', itemPointer: (i) => `/tool_calls/${i}` };

/**
 * Recognise a parsed (or handed-over) output and extract its calls. Checked in this order:
 * OpenAI chat completion (`choices`) · Responses response (`output`) · a single Responses item or Anthropic
 * block (by `type`) · an Anthropic message (`content` array) · an OpenAI assistant message (`role`, `content`,
 * `tool_calls`, `function_call`) · `{tool_calls: [...]}` · a single `{name, arguments}` call · arrays by their
 * first item's `type` (Responses items, Anthropic blocks), otherwise a plain list of calls.
 */
export function extractStructured(value: unknown): Extraction | ParseFailure {
  if (Array.isArray(value)) return extractFromList(value);
  if (!isFields(value)) {
    return parseFailure('unknown', 'unparseable_output', `Expected a tool-call object or list, got ${describeValue(value)}.`);
  }
  if (Array.isArray(value.choices)) return extractChatCompletion(value as typeof value & { choices: unknown[] });
  if (Array.isArray(value.output)) return extractResponse(value as typeof value & { output: unknown[] });
  const type = typeof value.type === 'string' ? value.type : undefined;
  if (type !== undefined && type !== 'message') {
    if (RESPONSES_ITEM_TYPES.has(type)) return extractResponseItems([value], SINGLE);
    if (ANTHROPIC_BLOCK_TYPES.has(type)) return extractAnthropicBlocks([value], SINGLE);
  }
  const noChatCalls = value.tool_calls === undefined && value.function_call === undefined;
  if (Array.isArray(value.content) && noChatCalls) {
    if (isResponsesMessage(value.content)) return extractResponseItems([value], SINGLE);
    return extractAnthropicMessage(value as typeof value & { content: unknown[] });
  }
  if ('role' in value || 'content' in value || value.function_call !== undefined) return extractChatMessage(value);
  if (Array.isArray(value.tool_calls)) return extractJsonCalls(value.tool_calls, TOOL_CALLS);
  if (looksLikeJsonCall(value)) return { format: 'json_array', calls: [jsonCall(value, 0)], location: SINGLE, answer: null };
  return parseFailure(
    'unknown',
    'unparseable_output',
    `Unrecognised output object (keys: ${keyList(value)}); expected an OpenAI chat completion or message, a Responses API ` +
      'response, an Anthropic message, or tool calls like {"name": ..., "arguments": {...}}.',
  );
}

function extractFromList(items: readonly unknown[]): Extraction | ParseFailure {
  const first = items[0];
  if (isFields(first) && typeof first.type === 'string') {
    if (ANTHROPIC_BLOCK_TYPES.has(first.type)) return extractAnthropicBlocks(items, CONTENT_LIST);
    if (RESPONSES_ITEM_TYPES.has(first.type)) return extractResponseItems(items, OUTPUT_LIST);
  }
  return extractJsonCalls(items, LIST);
}

/** A Responses `message` item has `output_text`/`refusal` parts; Anthropic content has `text`/`tool_use` blocks. */
function isResponsesMessage(content: readonly unknown[]): boolean {
  const first = content[0];
  return isFields(first) && (first.type === 'output_text' || first.type === 'refusal');
}
