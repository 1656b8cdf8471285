import { buildOutcome } from './buildCalls.js';
import { describeValue } from './describeValue.js';
import { extractStructured } from './formats/detectFormat.js';
import { isParseFailure, parseFailure, type ParseOutcome } from './outcome.js';
import { parseText } from './parseText.js';

/**
 * Parse a target's raw output into ToolCalls and its natural-language answer. `raw` is text (JSON, Python-style
 * call text or prose) or an already-parsed object (OpenAI chat completion or message, Responses response or
 * items, Anthropic message or content blocks, `{name, arguments}` calls). Never throws: bad output is a
 * ParseFailure with an error code and a message a person can act on.
 */
export function parseToolCalls(raw: unknown): ParseOutcome {
  try {
    return parseRaw(raw);
  } catch (error) {
    // Last line of defence for hostile objects (throwing getters, proxies, exotic stack depths).
    const reason = error instanceof Error ? error.message : describeValue(error);
    return parseFailure('unknown', 'unparseable_output', `The output could not be read: ${reason}.`);
  }
}

function parseRaw(raw: unknown): ParseOutcome {
  if (raw === null || raw === undefined) return parseFailure('unknown', 'empty_output', `The target returned no output (${String(raw)}).`);
  if (typeof raw === 'string') return parseText(raw);
  if (typeof raw === 'object') {
    const extraction = extractStructured(raw);
    return isParseFailure(extraction) ? extraction : buildOutcome(extraction, null);
  }
  return parseFailure('unknown', 'unparseable_output', `Expected the target output as text or a JSON object, got ${describeValue(raw)}.`);
}
