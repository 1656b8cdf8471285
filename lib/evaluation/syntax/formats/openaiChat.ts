import { isParseFailure, parseFailure, type ParseFailure } from '../outcome.js';
import type { CallLocation, Extraction, RawCall } from '../rawCall.js';
import { isFields, joinAnswer, partTexts, type Fields } from './fields.js';

const TEXT_PARTS: ReadonlySet<string> = new Set(['text', 'output_text']);

/** Where a message's calls sit: a bare message, or choices[0] of a completion (static: no per-output closures). */
interface MessageLocations {
  toolCalls: CallLocation;
  functionCall: CallLocation;
}
const AT_ROOT: MessageLocations = {
  toolCalls: { label: 'tool_calls', itemPointer: (i) => `/tool_calls/${i}` },
  functionCall: { label: 'function_call', single: true, itemPointer: () => '/function_call' },
};
const IN_COMPLETION: MessageLocations = {
  toolCalls: { label: 'tool_calls', itemPointer: (i) => `/choices/0/message/tool_calls/${i}` },
  functionCall: { label: 'function_call', single: true, itemPointer: () => '/choices/0/message/function_call' },
};

/** An OpenAI chat completion: the first choice's message (other choices are ignored). */
export function extractChatCompletion(completion: Fields & { choices: unknown[] }): Extraction | ParseFailure {
  const choice = completion.choices[0];
  if (choice === undefined) return parseFailure('openai_chat', 'empty_output', 'The chat completion has no choices.');
  if (!isFields(choice) || !isFields(choice.message)) {
    return parseFailure('openai_chat', 'unparseable_output', 'choices[0] of the chat completion has no message object.');
  }
  const extraction = extractChatMessage(choice.message, IN_COMPLETION);
  if (isParseFailure(extraction)) return extraction;
  if (choice.finish_reason === 'length') {
    extraction.truncation = 'finish_reason is "length": the output hit the token limit (raise max_tokens)';
  } else if (choice.finish_reason === 'content_filter') {
    extraction.truncation = 'finish_reason is "content_filter": the provider filtered the output';
  }
  return extraction;
}

/**
 * An assistant message: `tool_calls: [{id, type: 'function', function: {name, arguments}}]`, or the legacy
 * `function_call: {name, arguments}`; the answer is `content` (string or text parts) or `refusal`.
 */
export function extractChatMessage(message: Fields, where: MessageLocations = AT_ROOT): Extraction | ParseFailure {
  const calls: RawCall[] = [];
  const toolCalls = message.tool_calls;
  let location: CallLocation;
  if (Array.isArray(toolCalls)) {
    location = where.toolCalls;
    for (let i = 0; i < toolCalls.length; i++) {
      const item: unknown = toolCalls[i];
      if (!isFields(item)) {
        calls.push({ name: undefined, args: undefined, callId: undefined, index: i, argsPath: '' });
      } else if (isFields(item.function)) {
        const fn = item.function;
        calls.push({ name: fn.name, args: fn.arguments, callId: item.id, index: i, argsPath: '/function/arguments' });
      } else {
        calls.push({ name: item.name, args: item.arguments, callId: item.id, index: i, argsPath: '/arguments' });
      }
    }
  } else if (toolCalls !== undefined && toolCalls !== null) {
    return parseFailure('openai_chat', 'unparseable_output', 'The message has tool_calls that is not an array.');
  } else {
    location = where.functionCall;
    const fn = message.function_call;
    if (isFields(fn)) calls.push({ name: fn.name, args: fn.arguments, callId: undefined, index: 0, argsPath: '/arguments' });
  }
  return { format: 'openai_chat', calls, location, answer: chatAnswer(message) };
}

function chatAnswer(message: Fields): string | null {
  const content = message.content;
  const refusal = message.refusal;
  if (typeof refusal !== 'string') {
    if (typeof content === 'string') return content.trim() === '' ? null : content;
    if (!Array.isArray(content)) return null;
  }
  const texts: string[] = [];
  if (typeof content === 'string') texts.push(content);
  else if (Array.isArray(content)) partTexts(content, TEXT_PARTS, texts);
  if (typeof refusal === 'string') texts.push(refusal);
  return joinAnswer(texts);
}
