import { isJsonObject } from '../../../domain/index.js';
import { findFloatLiteralPaths, mayContainFloatLiteral } from '../../../evaluation/index.js';
import { numberedLines } from '../lines.js';
import type { ImportRowError, LinesInput } from '../types.js';

export interface AnswerEntry {
  row: number;
  groundTruth: unknown;
  /** JSON pointers into `groundTruth` of numbers written as floats with an integral value (`5.0`), which JSON.parse loses */
  floatPaths: string[];
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
    answers.set(id, { row, groundTruth: value['ground_truth'], floatPaths: groundTruthFloatPaths(text) });
  }
  return { answers, errors };
}

/** The float-literal pointers of a line's `ground_truth`, relative to it (`/0/f/x/0`). */
export function groundTruthFloatPaths(lineText: string): string[] {
  if (!mayContainFloatLiteral(lineText)) return [];
  const prefix = '/ground_truth';
  return findFloatLiteralPaths(lineText)
    .filter((p) => p.startsWith(prefix + '/'))
    .map((p) => p.slice(prefix.length));
}
