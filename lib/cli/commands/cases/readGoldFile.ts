import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { importBfcl, importCsv, importJson, importJsonl, linesOf, type ImportOptions, type ImportResult } from '../../../goldset/index.js';
import { CliError } from '../../cliError.js';

export type GoldFormat = 'json' | 'jsonl' | 'csv' | 'bfcl';

/** What each format is sent as when a file goes to the server as it is. */
export const CONTENT_TYPES: Readonly<Record<Exclude<GoldFormat, 'bfcl'>, string>> = {
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  csv: 'text/csv',
};

/** `--format`, else BFCL when `--answers` is given, else the file extension (.json, .jsonl/.ndjson, .csv). */
export function formatOf(file: string, flag: string | undefined, hasAnswers: boolean): GoldFormat {
  if (flag) return flag as GoldFormat;
  if (hasAnswers) return 'bfcl';
  const ext = extname(file).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.csv') return 'csv';
  throw new CliError(`cannot tell the format of ${file} from its extension; pass --format json|jsonl|csv|bfcl`);
}

export interface GoldFileInput {
  file: string;
  format: GoldFormat;
  answers?: string;
  category?: string;
  /** BFCL multi-turn: function doc files by class name */
  functions?: Record<string, string>;
}

/**
 * Reads and validates a gold file locally with the platform's own importers (the server runs the same code), so an
 * import can be checked as a whole before anything is sent. JSON Lines and CSV are streamed from disk.
 */
export async function readGoldFile(input: GoldFileInput, options: ImportOptions): Promise<ImportResult> {
  try {
    switch (input.format) {
      case 'json':
        return await importJson(await readFile(input.file, 'utf8'), options);
      case 'jsonl':
        return await importJsonl(linesOf(createReadStream(input.file)), options);
      case 'csv':
        return await importCsv(createReadStream(input.file), options);
      case 'bfcl':
        return await importBfcl(
          {
            questions: linesOf(createReadStream(input.file)),
            ...(input.answers ? { answers: linesOf(createReadStream(input.answers)) } : {}),
            ...(input.category ? { category: input.category } : {}),
            ...(input.functions
              ? {
                  functions: Object.fromEntries(
                    Object.entries(input.functions).map(([name, path]) => [name, linesOf(createReadStream(path))]),
                  ),
                }
              : {}),
          },
          options,
        );
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new CliError(`no such file: ${(err as NodeJS.ErrnoException).path ?? input.file}`);
    throw err;
  }
}
