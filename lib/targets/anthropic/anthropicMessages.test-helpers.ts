import type { ScriptedResponse } from '../testing/scriptedServer.test-helpers.js';

/** Test support: a Messages API answer with `content` blocks and usage (cache counts optional). */
export function message(
  content: Array<Record<string, unknown>>,
  options: { model?: string; input?: number; output?: number; cacheWrite?: number; cacheRead?: number; stop?: string } = {},
): ScriptedResponse {
  return {
    body: {
      id: 'msg_test',
      type: 'message',
      role: 'assistant',
      model: options.model ?? 'claude-test-1',
      content,
      stop_reason: options.stop ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
      usage: {
        input_tokens: options.input ?? 100,
        output_tokens: options.output ?? 20,
        cache_creation_input_tokens: options.cacheWrite ?? 0,
        cache_read_input_tokens: options.cacheRead ?? 0,
      },
    },
  };
}

export function toolUse(id: string, name: string, input: unknown): Record<string, unknown> {
  return { type: 'tool_use', id, name, input };
}

export function text(value: string): Record<string, unknown> {
  return { type: 'text', text: value };
}

/** An Anthropic-style error body. */
export function anthropicError(status: number, message: string, headers: Record<string, string> = {}): ScriptedResponse {
  return { status, headers, body: { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } } };
}
