import { type JsonValue, pointersUnder, type ToolCall } from '../../domain/index.js';
import { describeJsonError } from './jsonErrorPosition.js';
import { describeValue, isSpaceCode } from './describeValue.js';
import { findFloatLiteralPaths, mayContainFloatLiteral } from './floatLiterals.js';
import { jsonTextTooDeep, MAX_NESTING } from './nesting.js';
import { parseFailure, type ParseOutcome } from './outcome.js';
import { findNonJsonValue } from './plainJson.js';
import { whereIs, type CallLocation, type Extraction, type RawCall } from './rawCall.js';

type Arguments = Record<string, JsonValue>;
type ArgsResult = { ok: true; args: Arguments; text?: string; floatPaths?: string[] } | { ok: false; message: string };

/**
 * Turn an extraction into ToolCalls. Argument text is parsed with one JSON.parse; float literals are looked for
 * only when a cheap pre-check says there may be one. `documentText` is the text the extraction was parsed
 * from (null when the output came as an object): it maps float literals of object-form arguments to calls.
 */
export function buildOutcome(extraction: Extraction, documentText: string | null): ParseOutcome {
  const { format, answer, location } = extraction;
  const calls: ToolCall[] = [];
  let problems: { code: 'unparseable_output' | 'invalid_arguments_json'; message: string }[] | undefined;
  let documentFloats: string[] | undefined;
  for (const raw of extraction.calls) {
    const name = raw.name;
    if (typeof name !== 'string' || isBlank(name)) {
      (problems ??= []).push({
        code: 'unparseable_output',
        message: `${whereIs(location, raw.index)} has no tool name (got ${describeValue(name)})`,
      });
      continue;
    }
    let result: ArgsResult;
    if (typeof raw.args === 'string') result = argumentsFromText(raw.args);
    else if (documentText !== null) {
      documentFloats ??= mayContainFloatLiteral(documentText) ? findFloatLiteralPaths(documentText) : [];
      result = argumentsFromParsed(raw, documentFloats, location);
    } else result = argumentsFromObject(raw.args);
    if (!result.ok) {
      (problems ??= []).push({ code: 'invalid_arguments_json', message: `${name} (${whereIs(location, raw.index)}): ${result.message}` });
      continue;
    }
    const call: ToolCall = { tool_name: name, arguments: result.args };
    if (typeof raw.callId === 'string' && raw.callId !== '') call.call_id = raw.callId;
    if (result.text !== undefined) call.raw_arguments = result.text;
    if (result.floatPaths !== undefined && result.floatPaths.length > 0) call.float_literal_paths = result.floatPaths;
    calls.push(call);
  }
  const first = problems?.[0];
  if (problems !== undefined && first !== undefined) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more bad call${problems.length > 2 ? 's' : ''})` : '';
    const hint = extraction.truncation ? `; ${extraction.truncation}` : '';
    return parseFailure(format, first.code, `${first.message}${more}${hint}`, calls, answer);
  }
  if (calls.length === 0 && answer === null && !extraction.emptyIsAbstention) {
    const hint = extraction.truncation ? ` (${extraction.truncation})` : '';
    return parseFailure(format, 'empty_output', `The ${format} output has neither tool calls nor text${hint}.`, calls, answer);
  }
  return { ok: true, format, calls, answer };
}

/** Empty or whitespace only, without allocating for the usual non-blank name. */
function isBlank(text: string): boolean {
  return text.length === 0 || (isSpaceCode(text.charCodeAt(0)) && text.trim() === '');
}

function argumentsFromText(text: string): ArgsResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (text.trim() === '') return { ok: true, args: {}, text };
    return { ok: false, message: `arguments are not valid JSON: ${describeJsonError(text, error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: `arguments must be a JSON object, got ${describeValue(value)}` };
  }
  if (jsonTextTooDeep(text)) return { ok: false, message: `arguments nest deeper than ${MAX_NESTING} levels` };
  const floatPaths = mayContainFloatLiteral(text) ? findFloatLiteralPaths(text) : undefined;
  return { ok: true, args: value as Arguments, text, floatPaths };
}

/** Arguments parsed as part of the document text: JSON by construction, floats come from the document scan. */
function argumentsFromParsed(raw: RawCall, documentFloats: string[], location: CallLocation): ArgsResult {
  const value = raw.args;
  if (value === undefined || value === null) return { ok: true, args: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: `arguments must be a JSON object, got ${describeValue(value)}` };
  }
  const floatPaths = documentFloats.length > 0 ? pointersUnder(documentFloats, location.itemPointer(raw.index) + raw.argsPath) : undefined;
  return { ok: true, args: value as Arguments, floatPaths };
}

/** Arguments handed over as a JavaScript object: check that they are plain JSON data. */
function argumentsFromObject(value: unknown): ArgsResult {
  if (value === undefined || value === null) return { ok: true, args: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: `arguments must be a JSON object, got ${describeValue(value)}` };
  }
  const problem = findNonJsonValue(value);
  if (problem !== null) return { ok: false, message: `arguments are not plain JSON: ${problem}` };
  return { ok: true, args: value as Arguments };
}
