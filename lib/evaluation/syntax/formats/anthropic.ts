import { isParseFailure, parseFailure, type ParseFailure } from '../outcome.js';
import type { CallLocation, Extraction, RawCall } from '../rawCall.js';
import { isFields, joinAnswer, type Fields } from './fields.js';

/** The `type`s of Anthropic content blocks (a list whose first item has one of these is Anthropic content). */
export const ANTHROPIC_BLOCK_TYPES: ReadonlySet<string> = new Set([
  'text',
  'tool_use',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
  'web_search_tool_result',
]);

const CONTENT: CallLocation = { label: 'content', itemPointer: (i) => `/content/${i}` };

/** An Anthropic message: its `content` blocks; `stop_reason: 'max_tokens'` is named in failure messages. */
export function extractAnthropicMessage(message: Fields & { content: unknown[] }): Extraction | ParseFailure {
  const extraction = extractAnthropicBlocks(message.content, CONTENT);
  if (!isParseFailure(extraction) && message.stop_reason === 'max_tokens') {
    extraction.truncation = 'stop_reason is "max_tokens": the output hit the token limit (raise max_tokens)';
  }
  return extraction;
}

/** Content blocks: `{type: 'tool_use', id, name, input}` are calls, `{type: 'text', text}` the answer; others are ignored. */
export function extractAnthropicBlocks(blocks: readonly unknown[], location: CallLocation): Extraction | ParseFailure {
  const calls: RawCall[] = [];
  const texts: string[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    if (!isFields(block)) {
      return parseFailure(
        'anthropic',
        'unparseable_output',
        `${location.label}[${i}] of the Anthropic message is not a content block object.`,
      );
    }
    if (block.type === 'tool_use') {
      calls.push({ name: block.name, args: block.input, callId: block.id, index: i, argsPath: '/input' });
    } else if (block.type === 'text' && typeof block.text === 'string') {
      texts.push(block.text);
    }
  }
  return { format: 'anthropic', calls, location, answer: joinAnswer(texts) };
}
