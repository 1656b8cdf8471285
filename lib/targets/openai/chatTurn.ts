import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ToolCatalog } from '../../domain/index.js';
import type { TargetFailure } from '../../ports/index.js';
import type { ToolNameMap } from './toolNames.js';

export type Fields = Record<string, unknown>;

export function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One chat-completions round trip, read defensively (the endpoint may answer anything). */
export type ChatTurn =
  | {
      ok: true;
      /** the completion as received */
      completion: Fields;
      /** choices[0].message, when there is one */
      message: Fields | undefined;
      /** message.tool_calls as received (wire names), [] when none */
      toolCalls: unknown[];
      inputTokens: number;
      outputTokens: number;
      model: string | null;
    }
  | { ok: false; failure: TargetFailure };

/** Reads a completion the client returned (typed as ChatCompletion, but really whatever JSON came back). */
export function readCompletion(completion: Fields): Extract<ChatTurn, { ok: true }> {
  const choices = completion.choices;
  const choice: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message = isFields(choice) && isFields(choice.message) ? choice.message : undefined;
  const usage = isFields(completion.usage) ? completion.usage : {};
  return {
    ok: true,
    completion,
    message,
    toolCalls: message && Array.isArray(message.tool_calls) ? message.tool_calls : [],
    inputTokens: count(usage.prompt_tokens),
    outputTokens: count(usage.completion_tokens),
    model: typeof completion.model === 'string' && completion.model !== '' ? completion.model : null,
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0;
}

/** The catalog's tools as chat-completions `tools`, under their wire names. */
export function catalogTools(catalog: ToolCatalog | undefined, names: ToolNameMap): ChatCompletionTool[] {
  if (!catalog) return [];
  return catalog.tools.map((tool) => ({
    type: 'function',
    function: {
      name: names.toWire(tool.name),
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.parameters,
    },
  }));
}

/** A tool call with its function name mapped back to the catalog name (a copy only when the name changes). */
export function withCatalogName(call: unknown, names: ToolNameMap): unknown {
  if (!isFields(call) || !isFields(call.function) || typeof call.function.name !== 'string') return call;
  const name = names.fromWire(call.function.name);
  return name === call.function.name ? call : { ...call, function: { ...call.function, name } };
}

/** The message with its tool call names mapped back (the message itself when nothing is renamed). */
export function messageWithCatalogNames(message: Fields, names: ToolNameMap): Fields {
  if (!names.renames || !Array.isArray(message.tool_calls)) return message;
  return { ...message, tool_calls: message.tool_calls.map((call: unknown) => withCatalogName(call, names)) };
}
