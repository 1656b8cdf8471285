import { stringify } from 'csv-stringify/sync';
import type { TestCase } from '../../domain/index.js';
import { CSV_COLUMNS, CSV_COLUMN_NAMES } from './csvColumns.js';

export type CasesInput = Iterable<TestCase> | AsyncIterable<TestCase>;

/** One JSON line per case, each ending with '\n' (ready to write to a stream). `importJsonl` reads it back exactly. */
export async function* exportJsonl(cases: CasesInput): AsyncGenerator<string> {
  for await (const testCase of cases) yield `${JSON.stringify(testCase)}\n`;
}

/**
 * CSV: the header row, then one row per case (each string one record ending with '\n'), every column of
 * csvColumns.ts. Absent values are unquoted empty cells and empty strings are `""`, so `importCsv` reads it back exactly.
 */
export async function* exportCsv(cases: CasesInput): AsyncGenerator<string> {
  yield stringify([CSV_COLUMN_NAMES]);
  for await (const testCase of cases) {
    yield stringify([CSV_COLUMNS.map((column) => column.write(testCase))], STRINGIFY_OPTIONS);
  }
}

/** Quote empty strings, so they differ from absent cells (csv-stringify already quotes `,` `"` `\n` `\r`). */
const STRINGIFY_OPTIONS = { quoted_match: /^$/ };
