import { z } from 'zod';
import {
  importBfcl,
  importCsv,
  importJson,
  importJsonl,
  type BfclInput,
  type ImportOptions,
  type ImportResult,
} from '../../../goldset/index.js';
import { ApiError } from '../../problem.js';
import type { RawBody } from '../../route.js';
import type { ImportFormat } from './importFormat.js';

/** A BFCL file as a JSON string (JSON Lines text) or as an array of its line objects. */
const BfclFileSchema = z.union([
  z.string(),
  z.array(z.record(z.string(), z.unknown())).transform((lines) => lines.map((line) => JSON.stringify(line))),
]);

/**
 * BFCL sent as JSON: `{"questions": "<question file: JSON Lines text>", "answers": "<possible-answer file>",
 * "category": "simple"}` (answers and category optional; either file may also be an array of its line objects).
 */
export const BfclEnvelopeSchema = z
  .object({
    questions: BfclFileSchema,
    answers: BfclFileSchema.optional(),
    category: z.string().min(1).optional(),
    /** multi-turn categories: BFCL's multi_turn_func_doc files by API class name (`{"GorillaFileSystem": "<JSON Lines>"}`) */
    functions: z.record(z.string().min(1), BfclFileSchema).optional(),
  })
  .strict();

/** Reads an import body in its format with the shared importers (row errors are data, not exceptions). */
export async function readImport(raw: RawBody, format: ImportFormat, options: ImportOptions): Promise<ImportResult> {
  switch (format) {
    case 'json':
      return importJson(raw.text, options);
    case 'jsonl':
      return importJsonl(raw.text, options);
    case 'csv':
      return importCsv(raw.text, options);
    case 'bfcl':
      return importBfcl(await bfclInput(raw), options);
  }
}

async function bfclInput(raw: RawBody): Promise<BfclInput> {
  if (raw.mediaType === 'multipart/form-data') return bfclParts(raw);
  if (raw.mediaType !== 'application/json') return { questions: raw.text };
  let json: unknown;
  try {
    json = JSON.parse(raw.text);
  } catch (err) {
    throw new ApiError(400, 'Bad Request', `the body is not valid JSON: ${(err as Error).message}`, [
      { path: 'body', message: 'not valid JSON' },
    ]);
  }
  const envelope = BfclEnvelopeSchema.parse(json);
  return {
    questions: envelope.questions,
    ...(envelope.answers !== undefined ? { answers: envelope.answers } : {}),
    ...(envelope.category ? { category: envelope.category } : {}),
    ...(envelope.functions ? { functions: envelope.functions } : {}),
  };
}

/** multipart/form-data with parts `questions` (required), `answers` and `category` (files or plain fields). */
async function bfclParts(raw: RawBody): Promise<BfclInput> {
  let form: FormData;
  try {
    form = await new Response(raw.text, { headers: { 'content-type': raw.contentType } }).formData();
  } catch (err) {
    throw new ApiError(400, 'Bad Request', `the body is not valid multipart/form-data: ${(err as Error).message}`, [
      { path: 'body', message: 'not valid multipart/form-data' },
    ]);
  }
  const text = async (name: string): Promise<string | undefined> => {
    const part = form.get(name);
    return part === null ? undefined : typeof part === 'string' ? part : await part.text();
  };
  const unknown = [...new Set(form.keys())].filter((name) => !['questions', 'answers', 'category'].includes(name));
  if (unknown.length > 0)
    throw new ApiError(
      400,
      'Bad Request',
      `unknown part(s) ${unknown.join(', ')}: send questions, answers and category`,
      unknown.map((name) => ({ path: `body.${name}`, message: 'unknown part' })),
    );
  const questions = await text('questions');
  if (questions === undefined)
    throw new ApiError(400, 'Bad Request', 'the BFCL question file is missing: send it as the part "questions"', [
      { path: 'body.questions', message: 'required' },
    ]);
  const answers = await text('answers');
  const category = (await text('category'))?.trim();
  return { questions, ...(answers !== undefined ? { answers } : {}), ...(category ? { category } : {}) };
}
