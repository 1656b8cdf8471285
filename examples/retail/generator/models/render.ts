import type { JsonObject, JsonValue } from '../../../../lib/domain/index.js';
import { BASE62, type Prng } from '../prng.js';
import type { Call } from '../scenarios/types.js';
import type { Behaviour } from './behaviour.js';
import type { ModelProfile } from './profiles.js';

/** The calls in the order the model emitted them. */
export function emittedCalls(behaviour: Behaviour): Call[] {
  const made = [...behaviour.calls.filter((c): c is Call => c !== undefined), ...behaviour.extra];
  return behaviour.order ? behaviour.order.map((i) => made[i]!).concat(made.slice(behaviour.order.length)) : made;
}

/** Argument text as OpenAI models write it: compact JSON, with an integer written `3.0` when the behaviour says so. */
function argumentText(call: Call, floatArgument: string | undefined): string {
  const text = JSON.stringify(call.arguments);
  if (floatArgument === undefined) return text;
  return text.replace(new RegExp(`("${floatArgument}":-?\\d+)(?=[,}])`), '$1.0');
}

/** An OpenAI chat-completions assistant message: tool calls with JSON-text arguments, and the final answer. */
export function renderOpenAi(behaviour: Behaviour, answer: string, rng: Prng): JsonObject {
  const calls = emittedCalls(behaviour);
  const floatCall = behaviour.floatLiteral ? behaviour.calls[behaviour.floatLiteral.call] : undefined;
  const message: JsonObject = { role: 'assistant', content: answer };
  if (calls.length) {
    message['tool_calls'] = calls.map((c) => ({
      id: `call_${rng.chars(BASE62, 24)}`,
      type: 'function',
      function: { name: c.tool_name, arguments: argumentText(c, c === floatCall ? behaviour.floatLiteral!.argument : undefined) },
    }));
  }
  message['refusal'] = null;
  return message;
}

const PREAMBLES = ["I'll look that up.", 'Let me check that for you.', "I'll pull that up now.", 'Let me run that.'] as const;

/**
 * An Anthropic message: a short preamble, the `tool_use` blocks, then the final answer as a text block (the
 * agent loop's turns collapsed into one message, as the replay target returns it).
 */
export function renderAnthropic(
  behaviour: Behaviour,
  answer: string,
  profile: ModelProfile,
  usage: { input_tokens: number; output_tokens: number },
  rng: Prng,
): JsonObject {
  const calls = emittedCalls(behaviour);
  const content: JsonValue[] = [];
  if (calls.length) content.push({ type: 'text', text: rng.pick(PREAMBLES) });
  for (const c of calls) content.push({ type: 'tool_use', id: `toolu_01${rng.chars(BASE62, 22)}`, name: c.tool_name, input: c.arguments });
  content.push({ type: 'text', text: answer });
  return {
    id: `msg_01${rng.chars(BASE62, 22)}`,
    type: 'message',
    role: 'assistant',
    model: profile.model,
    content,
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens },
  };
}
