import { isParseFailure, parseFailure, type ParseFailure } from '../outcome.js';
import type { CallLocation, Extraction, RawCall } from '../rawCall.js';
import { isFields, joinAnswer, partTexts, type Fields } from './fields.js';

/** The `type`s of Responses API output items (a list whose first item has one of these is Responses output). */
export const RESPONSES_ITEM_TYPES: ReadonlySet<string> = new Set([
  'function_call',
  'message',
  'reasoning',
  'function_call_output',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'custom_tool_call',
]);

const TEXT_PARTS: ReadonlySet<string> = new Set(['output_text']);
const OUTPUT: CallLocation = { label: 'output', itemPointer: (i) => `/output/${i}` };

/** A Responses API response: its `output` items; `status: 'incomplete'` is named in failure messages. */
export function extractResponse(response: Fields & { output: unknown[] }): Extraction | ParseFailure {
  const extraction = extractResponseItems(response.output, OUTPUT);
  if (isParseFailure(extraction)) return extraction;
  if (response.status === 'incomplete') {
    const details = response.incomplete_details;
    const reason = isFields(details) && typeof details.reason === 'string' ? details.reason : 'unknown';
    extraction.truncation = `the response is incomplete (reason: ${reason})`;
  }
  return extraction;
}

/**
 * Responses output items: `{type: 'function_call', call_id, name, arguments}` are calls; `output_text` (and
 * `refusal`) parts of `{type: 'message'}` items are the answer; other item types are ignored.
 */
export function extractResponseItems(items: readonly unknown[], location: CallLocation): Extraction | ParseFailure {
  const calls: RawCall[] = [];
  const texts: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!isFields(item)) {
      return parseFailure('openai_responses', 'unparseable_output', `${location.label}[${i}] of the Responses output is not an object.`);
    }
    if (item.type === 'function_call') {
      calls.push({ name: item.name, args: item.arguments, callId: item.call_id ?? item.id, index: i, argsPath: '/arguments' });
    } else if (item.type === 'message' && Array.isArray(item.content)) {
      partTexts(item.content, TEXT_PARTS, texts);
    }
  }
  return { format: 'openai_responses', calls, location, answer: joinAnswer(texts) };
}
