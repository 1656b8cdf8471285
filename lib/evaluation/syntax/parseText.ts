import type { ToolCall } from '../../domain/index.js';
import { buildOutcome } from './buildCalls.js';
import { describePosition, isSpaceCode } from './describeValue.js';
import { extractStructured } from './formats/detectFormat.js';
import { describeJsonError } from './jsonErrorPosition.js';
import { isParseFailure, parseFailure, type ParseOutcome } from './outcome.js';
import { jsonTextTooDeep, MAX_NESTING } from './nesting.js';
import { parsePythonCalls } from './python/calls.js';

/** Call text starts with a (dotted) name and `(`: `fn(`, `math.factorial(`; or a list of them: `[fn(`. */
const CALL_START = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\(/;
const CALL_LIST_START = /^\[\s*[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\s*\(/;
/** `[` starts JSON only when a JSON value (or `]`, or a quote) follows: `[Note] …` is prose. */
const JSON_LIST_START = /^\[\s*(?:[[{"'\]\-\d]|true\b|false\b|null\b)/;
/** The opening of a Markdown code fence and its language tag: ```json */
const FENCE_OPEN = /^```[\w+-]*/;

/**
 * Classify and parse a string output. `{…}`/`[…]` is JSON (one JSON.parse; `[` only before a JSON value),
 * `fn(…)`/`[fn(…)]` is Python-style call text, a whole-output code fence is unwrapped (once), and anything else
 * is a natural-language answer with no calls (format `text`: an abstention).
 */
export function parseText(text: string, insideFence = false): ParseOutcome {
  const trimmed = hasOuterSpace(text) ? text.trim() : text;
  if (trimmed === '') {
    return parseFailure(
      'unknown',
      'empty_output',
      text === '' ? 'The target returned an empty string.' : 'The target returned only whitespace.',
    );
  }
  const first = trimmed.charCodeAt(0);
  if (first === 0x60 /* ` */ && !insideFence && trimmed.startsWith('```')) {
    const outcome = parseText(fenceBody(trimmed), true);
    if (!outcome.ok && outcome.error_code === 'empty_output')
      return parseFailure('unknown', 'empty_output', 'The target returned an empty code block.');
    return outcome.format === 'text' ? textAnswer(text) : outcome;
  }
  if (first === 0x5b /* [ */ && CALL_LIST_START.test(trimmed)) return parsePython(trimmed);
  if (first === 0x7b /* { */ || (first === 0x5b && JSON_LIST_START.test(trimmed))) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      return parseFailure(
        'unknown',
        'unparseable_output',
        `The output looks like JSON but does not parse: ${describeJsonError(trimmed, error)}.`,
      );
    }
    if (jsonTextTooDeep(trimmed))
      return parseFailure('unknown', 'unparseable_output', `The output nests deeper than ${MAX_NESTING} levels.`);
    const extraction = extractStructured(value);
    return isParseFailure(extraction) ? extraction : buildOutcome(extraction, trimmed);
  }
  if (CALL_START.test(trimmed)) return parsePython(trimmed);
  return textAnswer(text);
}

/** The text inside a whole-output code fence (no regex backtracking: outputs can be huge). */
function fenceBody(fenced: string): string {
  let start = (FENCE_OPEN.exec(fenced)?.[0] as string).length;
  const lineEnd = fenced.indexOf('\n', start);
  if (lineEnd !== -1 && fenced.slice(start, lineEnd).trim() === '') start = lineEnd + 1;
  const end = fenced.length - 3 >= start && fenced.endsWith('```') ? fenced.length - 3 : fenced.length;
  return fenced.slice(start, end);
}

/** Trim only when needed: most outputs start with `{` and end with `}`. */
function hasOuterSpace(text: string): boolean {
  return text.length === 0 || isSpaceCode(text.charCodeAt(0)) || isSpaceCode(text.charCodeAt(text.length - 1));
}

function textAnswer(text: string): ParseOutcome {
  return { ok: true, format: 'text', calls: [], answer: text };
}

function parsePython(text: string): ParseOutcome {
  const parsed = parsePythonCalls(text);
  if (!parsed.ok) {
    return parseFailure(
      'python_calls',
      'unparseable_output',
      `The Python-style call text does not parse: ${parsed.message} ${describePosition(text, parsed.position)}.`,
    );
  }
  const calls = parsed.calls.map((c): ToolCall => {
    const call: ToolCall = { tool_name: c.name, arguments: c.arguments, raw_arguments: c.text };
    if (c.floatPaths.length > 0) call.float_literal_paths = c.floatPaths;
    return call;
  });
  return { ok: true, format: 'python_calls', calls, answer: null };
}
