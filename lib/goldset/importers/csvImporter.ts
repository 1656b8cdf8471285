import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { ImportCollector } from './collector.js';
import { mayHaveQuotedEmpty, quotedEmptyCells } from './csvQuotedEmpty.js';
import { CSV_COLUMNS, CSV_COLUMN_NAMES, REQUIRED_CSV_COLUMNS, csvFieldName, type CsvColumn, type CsvDraft } from './csvColumns.js';
import type { ImportOptions, ImportResult, ImportRowError } from './types.js';

/** CSV text, or a stream of text/byte chunks (any boundaries), e.g. a file read stream or a request body. */
export type CsvInput = string | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

interface CsvRecord {
  record: string[];
  raw: string;
  info: { lines: number };
}

const COLUMNS_BY_NAME = new Map(CSV_COLUMNS.map((c) => [c.name, c]));

/**
 * CSV with a header row naming the columns (see csvColumns.ts; unknown columns are an error naming them). Rows are
 * the line where the record starts (the header is row 1). An unquoted empty cell is absent; `""` is an empty string.
 */
export async function importCsv(input: CsvInput, options: ImportOptions = {}): Promise<ImportResult> {
  const collector = new ImportCollector(options, 'csv', csvFieldName);
  const parser = Readable.from(typeof input === 'string' ? [input] : input).pipe(
    parse({
      bom: true,
      record_delimiter: ['\r\n', '\n'], // also when a file mixes them
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      raw: true,
      skip_records_with_error: true,
    }),
  );
  // malformed records (a quote never closed, ...) are skipped by the parser and reported after the good ones
  const skipped: { records: number; message: string }[] = [];
  parser.on('skip', (error: Error & { records?: number }) => {
    const records = error.records ?? 0;
    // the parser may stumble several times in one bad record: report its first problem
    if (skipped.at(-1)?.records !== records) skipped.push({ records, message: error.message });
  });
  const endLines: number[] = [];
  let header: CsvColumn[] | undefined;
  try {
    for await (const parsed of parser as AsyncIterable<CsvRecord>) {
      endLines.push(parsed.info.lines);
      const record = cellsOf(parsed);
      const row = parsed.info.lines - newlinesIn(record);
      if (header === undefined) {
        const result = readHeader(record, row);
        if (Array.isArray(result)) {
          collector.addErrors(result);
          return collector.result();
        }
        header = result.columns;
        continue;
      }
      collector.countRow();
      readRecord(collector, header, record, row);
    }
  } catch (error) {
    collector.addErrors([{ row: 0, field: '', reason: `could not read the CSV: ${(error as Error).message}` }]);
  }
  for (const { records, message } of skipped) {
    if (header !== undefined) collector.countRow();
    // the bad record starts on the line after the last good one
    collector.addErrors([{ row: (endLines[records - 1] ?? 0) + 1, field: '', reason: `not valid CSV: ${message}` }]);
  }
  if (header === undefined && collector.errorCount === 0) {
    collector.addErrors([{ row: 0, field: '', reason: 'empty input: a header row naming the columns is required' }]);
  }
  return collector.result();
}

function readRecord(collector: ImportCollector, header: CsvColumn[], record: (string | undefined)[], row: number): void {
  const errors: ImportRowError[] = [];
  const draft: CsvDraft = { metadata: {} };
  if (record.length !== header.length) {
    errors.push({ row, field: '', reason: `has ${record.length} cells but the header has ${header.length} columns` });
  }
  header.forEach((column, index) => {
    const cell = record[index];
    if (cell === undefined) return;
    const reason = column.read(cell, draft);
    if (reason !== undefined) errors.push({ row, field: column.name, reason });
  });
  if (errors.length > 0) {
    const id = typeof draft['id'] === 'string' ? draft['id'] : undefined;
    collector.addErrors(id === undefined ? errors : errors.map((e) => ({ ...e, id })));
    return;
  }
  collector.addCandidate(row, draft);
}

function readHeader(record: (string | undefined)[], row: number): { columns: CsvColumn[] } | ImportRowError[] {
  const errors: ImportRowError[] = [];
  const names = record.map((cell) => (cell ?? '').trim());
  const columns: CsvColumn[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const column = COLUMNS_BY_NAME.get(name);
    if (column === undefined) {
      errors.push({ row, field: name, reason: `unknown column ${JSON.stringify(name)} (known columns: ${CSV_COLUMN_NAMES.join(', ')})` });
    } else if (seen.has(name)) {
      errors.push({ row, field: name, reason: 'column appears twice in the header' });
    } else columns.push(column);
    seen.add(name);
  }
  for (const name of REQUIRED_CSV_COLUMNS) {
    if (!seen.has(name) && !seen.has('turns')) errors.push({ row, field: name, reason: 'required column is missing from the header' });
  }
  return errors.length > 0 ? errors : { columns };
}

/** The record's cells, an unquoted empty cell as undefined (absent) and `""` as ''. */
function cellsOf({ record, raw }: CsvRecord): (string | undefined)[] {
  if (!record.includes('')) return record;
  const quoted = mayHaveQuotedEmpty(raw) ? quotedEmptyCells(raw) : undefined;
  return record.map((cell, index) => (cell === '' && !quoted?.has(index) ? undefined : cell));
}

function newlinesIn(record: (string | undefined)[]): number {
  let count = 0;
  for (const cell of record) {
    if (cell === undefined) continue;
    for (let i = cell.indexOf('\n'); i !== -1; i = cell.indexOf('\n', i + 1)) count += 1;
  }
  return count;
}
