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
  if (!('output' in v)) return { line, error: `line ${line}: output is missing for test case "${id}"` };
  const out: OutputLine = { line, test_case_id: id, output: v.output };
  for (const key of ['latency_ms', 'input_tokens', 'output_tokens', 'cost_usd'] as const) {
    if (typeof v[key] === 'number') out[key] = v[key];
  }
  return out;
}
