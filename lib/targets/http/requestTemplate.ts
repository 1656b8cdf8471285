/** The values a template may use. */
export interface TemplateValues {
  question: string;
  test_case_id: string;
  /**
   * The conversation so far as chat messages (`[{role: 'user'|'assistant', content, tool_calls?}]`, the current user
   * message last): one user message for a single-question case. Rendered as a JSON array (as JSON text inside a
   * JSON string or a URL). Absent = `[{role: 'user', content: question}]`.
   */
  messages?: readonly unknown[];
}

export const TEMPLATE_PLACEHOLDERS = ['question', 'test_case_id', 'messages'] as const satisfies readonly (keyof TemplateValues)[];
type Placeholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

type Part = string | { name: Placeholder; inString: boolean };

export interface CompiledTemplate {
  /** the placeholders the template uses, in order */
  readonly placeholders: readonly Placeholder[];
  /** JSON bodies: a placeholder outside a JSON string becomes a string literal (`"..."`), inside one its escaped text */
  renderJson(values: TemplateValues): string;
  /** URLs: every placeholder becomes its percent-encoded text */
  renderUrl(values: TemplateValues): string;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/**
 * Compiles a template once. `{{question}}`, `{{test_case_id}}` and `{{messages}}` are substituted (whitespace inside the braces is
 * allowed); any other `{{name}}` throws (the caller names the setting). For JSON, whether a placeholder sits inside a
 * JSON string is decided by scanning the template's quotes, so `{"q": {{question}}}`, `{"q": "{{question}}"}` and
 * `{"q": "Q: {{question}}"}` all render valid JSON whatever quotes, backslashes or newlines the question holds.
 */
export function compileTemplate(template: string): CompiledTemplate {
  const parts: Part[] = [];
  const placeholders: Placeholder[] = [];
  let inString = false;
  let scanned = 0;
  const scanQuotes = (until: number): void => {
    for (let i = scanned; i < until; i++) {
      const ch = template[i];
      if (ch === '\\' && inString) i++;
      else if (ch === '"') inString = !inString;
    }
    scanned = until;
  };
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name)) {
      throw new Error(`uses {{${name}}}; only ${TEMPLATE_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')} are substituted`);
    }
    scanQuotes(match.index);
    parts.push(template.slice(last, match.index), { name: name as Placeholder, inString });
    placeholders.push(name as Placeholder);
    last = match.index + match[0].length;
    scanned = last;
  }
  parts.push(template.slice(last));
  // strings render as strings; the messages as a JSON array (outside a JSON string) or its JSON text (inside one, in a URL)
  const valueOf = (values: TemplateValues, name: Placeholder): unknown =>
    name === 'messages' ? (values.messages ?? [{ role: 'user', content: values.question }]) : values[name];
  const textOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
  const render = (values: TemplateValues, encode: (value: unknown, inString: boolean) => string): string => {
    let out = '';
    for (const part of parts) out += typeof part === 'string' ? part : encode(valueOf(values, part.name), part.inString);
    return out;
  };
  return {
    placeholders,
    renderJson: (values) =>
      render(values, (value, quoted) => (quoted ? JSON.stringify(textOf(value)).slice(1, -1) : JSON.stringify(value))),
    renderUrl: (values) => render(values, (value) => encodeURIComponent(textOf(value))),
  };
}
