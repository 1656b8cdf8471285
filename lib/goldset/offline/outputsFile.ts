import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** One line of an outputs file: the raw output a target produced for a case. */
export type OutputLine =
  | {
      line: number;
      test_case_id: string;
      output: unknown;
      latency_ms?: number;
      input_tokens?: number;
      output_tokens?: number;
      cost_usd?: number;
      /** a conversation case: the output of each turn (`output` is then the last turn's) */
      turns?: Array<{ output: unknown; input_tokens?: number; output_tokens?: number }>;
    }
  | { line: number; error: string };

/**
 * Streams an outputs JSONL file: `{"test_case_id": "...", "output": <raw output>}` per line (optional
 * `latency_ms`, `input_tokens`, `output_tokens`, `cost_usd`). Blank lines are skipped; a bad line yields an
 * error entry naming the line and the reason, and reading goes on.
 */
export async function* readOutputsFile(path: string): AsyncGenerator<OutputLine> {
  const rl = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of rl) {
    line++;
    if (text.trim() === '') continue;
    yield parseOutputLine(text, line);
  }
}

export function parseOutputLine(text: string, line: number): OutputLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { line, error: `line ${line}: not valid JSON (${(err as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { line, error: `line ${line}: expected an object {"test_case_id", "output"}` };
  }
  const v = value as Record<string, unknown>;
  const id = v.test_case_id ?? v.id;
  if (typeof id !== 'string' || id === '') return { line, error: `line ${line}: test_case_id must be a non-empty string` };
  let turns: Array<{ output: unknown; input_tokens?: number; output_tokens?: number }> | undefined;
  if (v.turns !== undefined) {
    const items = Array.isArray(v.turns) ? v.turns : [];
    if (items.length === 0 || items.some((t) => typeof t !== 'object' || t === null || Array.isArray(t) || !('output' in t))) {
      return {
        line,
        error: `line ${line}: turns must be a non-empty list of {"output", "input_tokens"?, "output_tokens"?} for test case "${id}"`,
      };
    }
    turns = (items as Array<Record<string, unknown>>).map((t) => ({
      output: t.output,
      ...(typeof t.input_tokens === 'number' ? { input_tokens: t.input_tokens } : {}),
      ...(typeof t.output_tokens === 'number' ? { output_tokens: t.output_tokens } : {}),
    }));
  }
  if (!('output' in v) && !turns)
    return { line, error: `line ${line}: output (or turns, for a conversation) is missing for test case "${id}"` };
  const out: OutputLine = { line, test_case_id: id, output: 'output' in v ? v.output : turns!.at(-1)!.output, ...(turns ? { turns } : {}) };
  for (const key of ['latency_ms', 'input_tokens', 'output_tokens', 'cost_usd'] as const) {
    if (typeof v[key] === 'number') out[key] = v[key];
  }
  return out;
}
