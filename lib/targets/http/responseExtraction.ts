import { JSONPath } from 'jsonpath-plus';

export interface ResponsePaths {
  answer_path: string;
  tool_calls_path?: string | undefined;
  agent_path?: string | undefined;
  reason_path?: string | undefined;
}

export interface ExtractedResponse {
  output: unknown;
  agent?: string;
  routing_reason?: string;
}

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One JSONPath query (jsonpath-plus, `wrap: false`): undefined when nothing matches, the value for one match, an array for several. */
export function queryPath(json: unknown, path: string): unknown {
  return JSONPath({ path, json: json as object, wrap: false }) as unknown;
}

/**
 * Builds the output stage 1 parses from an agent endpoint's JSON response:
 * - with tool calls found at `tool_calls_path` (a list, or one call object): an OpenAI assistant message
 *   `{ role: 'assistant', content: <answer text>, tool_calls }` whose calls are normalised to
 *   `{ id?, type: 'function', function: { name, arguments } }` from `{name|tool_name|function, arguments|parameters|args|input}`
 *   (items that are not objects are kept, for stage 1 to reject); calls given as JSON text are parsed; other text
 *   (Python-style calls) becomes the output itself (the answer is then not kept);
 * - without calls: the value at `answer_path` itself when it is structured (an object or a list, e.g. a whole
 *   OpenAI or Anthropic message), else `{ role: 'assistant', content: <answer text or null> }`.
 * `agent` and `routing_reason` are the texts at their paths (non-strings as JSON text), absent when nothing matches.
 */
export function extractResponse(json: unknown, paths: ResponsePaths): ExtractedResponse {
  const answer = queryPath(json, paths.answer_path);
  const calls = paths.tool_calls_path ? queryPath(json, paths.tool_calls_path) : undefined;
  const extracted: ExtractedResponse = { output: buildOutput(answer, calls) };
  const agent = paths.agent_path ? textOf(queryPath(json, paths.agent_path)) : null;
  const reason = paths.reason_path ? textOf(queryPath(json, paths.reason_path)) : null;
  if (agent !== null) extracted.agent = agent;
  if (reason !== null) extracted.routing_reason = reason;
  return extracted;
}

function buildOutput(answer: unknown, calls: unknown): unknown {
  if (calls === undefined || calls === null) {
    if (typeof answer === 'object' && answer !== null) return answer;
    return { role: 'assistant', content: textOf(answer) };
  }
  let list: unknown = calls;
  if (typeof calls === 'string') {
    const parsed = parseJson(calls);
    if (parsed === undefined) return calls; // call text: stage 1 parses it
    list = parsed;
  }
  if (isFields(list)) list = [list];
  const toolCalls = Array.isArray(list) ? list.map(normalizeCall) : list;
  return { role: 'assistant', content: textOf(answer), tool_calls: toolCalls };
}

/** `{name|tool_name|function, arguments|parameters|args|input}` (or OpenAI's own shape) as an OpenAI tool call. */
export function normalizeCall(item: unknown): unknown {
  if (!isFields(item)) return item;
  const fn = isFields(item.function) ? item.function : undefined;
  const source = fn ?? item;
  const name = fn ? fn.name : (item.name ?? item.tool_name ?? item.function);
  const args = source.arguments ?? source.parameters ?? source.args ?? source.input;
  const id = item.id ?? item.call_id;
  return { ...(typeof id === 'string' ? { id } : {}), type: 'function', function: { name, arguments: args } };
}

function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}
