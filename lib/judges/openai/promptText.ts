/** Helpers to place untrusted text inside the tagged sections of a judge prompt. */

const SECTION_TAG = /<(\/?)(question|reference_answer|key_facts|tool_calls|api_data|candidate_answer|answer_1|answer_2)>/gi;

/** Neutralise our own section tags inside untrusted text so an answer cannot close its section early. */
export function escapeSections(text: string): string {
  return text.replace(SECTION_TAG, (_m, slash: string, name: string) => `&lt;${slash}${name}&gt;`);
}

/** Longest JSON context (tool calls, API data) copied into a prompt, in characters. */
export const MAX_CONTEXT_CHARS = 6_000;

/** JSON text of a context value, cut at `max` characters with a marker (bounds the prompt's cost). */
export function contextJson(value: unknown, max: number = MAX_CONTEXT_CHARS): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 1) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length <= max ? text : `${text.slice(0, max)}\n... [${text.length - max} more characters cut]`;
}

export function section(tag: string, body: string): string {
  return `<${tag}>\n${escapeSections(body)}\n</${tag}>`;
}

/** The key facts as a list, each marked with its importance when the case gave any ("- [critical] ..."). */
export function factLines(input: { expected_facts: readonly string[]; fact_importance?: readonly string[] | undefined }): string {
  return input.expected_facts
    .map((f, i) => (input.fact_importance ? `- [${input.fact_importance[i] ?? 'important'}] ${f}` : `- ${f}`))
    .join('\n');
}
