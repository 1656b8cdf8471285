import type { ExpectedToolCall, JsonObject } from '../../../../lib/domain/index.js';
import type { ToolName } from '../catalog.js';
import type { Prng } from '../prng.js';
import type { Answer, Call } from './types.js';

export function call(tool_name: ToolName, args: JsonObject): Call {
  return { tool_name, arguments: args };
}

/** Draws items without replacement (then starts over), so cases of one kind use different entities. */
export class Deck<T> {
  private left: T[] = [];

  constructor(
    private readonly rng: Prng,
    private readonly items: readonly T[],
  ) {
    if (items.length === 0) throw new Error('a deck needs items');
  }

  draw(): T {
    if (this.left.length === 0) this.left = this.rng.shuffle(this.items);
    return this.left.pop()!;
  }
}

/** Fills `{name}` slots of a template picked at random. */
export function phrase(rng: Prng, templates: readonly string[], slots: Readonly<Record<string, string | number>>): string {
  return rng.pick(templates).replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = slots[name];
    if (value === undefined) throw new Error(`template slot {${name}} has no value`);
    return String(value);
  });
}

/** The expected call for a concrete call with some arguments replaced by matchers. */
export function expectCall(
  c: Call,
  matchers: Readonly<Record<string, ExpectedToolCall['arguments'][string] | undefined>> = {},
): ExpectedToolCall {
  const args: ExpectedToolCall['arguments'] = { ...c.arguments };
  for (const [k, v] of Object.entries(matchers)) {
    if (v === undefined) delete args[k];
    else args[k] = v;
  }
  return { tool_name: c.tool_name, arguments: args };
}

export function withArgs(c: Call, changes: Readonly<Record<string, JsonObject[string] | undefined>>): Call {
  const args: JsonObject = { ...c.arguments };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete args[k];
    else args[k] = v;
  }
  return { tool_name: c.tool_name, arguments: args };
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Several answers as one. */
export function merge(...answers: Answer[]): Answer {
  return { sentences: answers.flatMap((a) => a.sentences), facts: answers.flatMap((a) => a.facts) };
}
