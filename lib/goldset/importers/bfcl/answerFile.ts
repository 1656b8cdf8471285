import { isJsonObject } from '../../../domain/index.js';
import { numberedLines } from '../lines.js';
import type { ImportRowError, LinesInput } from '../types.js';

export interface AnswerEntry {
  row: number;
  groundTruth: unknown;
}

/**
 * Reads BFCL's possible-answer file (JSON Lines `{"id": ..., "ground_truth": ...}`) into a map by id. Bad lines and
 * repeated ids are errors with `file: 'answers'` (a repeated id on its later line).
 */
export async function readAnswerFile(input: LinesInput): Promise<{ answers: Map<string, AnswerEntry>; errors: ImportRowError[] }> {
  const answers = new Map<string, AnswerEntry>();
  const errors: ImportRowError[] = [];
  for await (const { line: row, text } of numberedLines(input)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      errors.push({ row, field: '', reason: `not valid JSON: ${(error as Error).message}`, file: 'answers' });
      continue;
    }
    const id = isJsonObject(value) ? value['id'] : undefined;
    if (typeof id !== 'string' || id === '') {
      errors.push({ row, field: 'id', reason: 'expected a non-empty string id', file: 'answers' });
      continue;
    }
    if (!isJsonObject(value) || value['ground_truth'] === undefined) {
      errors.push({ row, id, field: 'ground_truth', reason: 'required', file: 'answers' });
      continue;
    }
    const first = answers.get(id);
    if (first !== undefined) {
      errors.push({ row, id, field: 'id', reason: `duplicate id "${id}" (first used on row ${first.row})`, file: 'answers' });
      continue;
    }
    answers.set(id, { row, groundTruth: value['ground_truth'] });
  }
  return { answers, errors };
}
