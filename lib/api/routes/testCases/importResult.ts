import type { ImportNote, ImportResult, ImportRowError, StoredImport } from '../../../goldset/index.js';
import { ApiError, toProblem, type FieldError } from '../../problem.js';
import type { ApiResult } from '../../route.js';

/** At most this many row errors (and notes) in one answer; `error_count` / `note_count` give the totals. */
export const MAX_LISTED_ROWS = 1_000;

/** A row error as a problem field: `body.rows.7.metadata.complexity_level` (BFCL answers: `body.answers.rows.3...`), plus row, id and field. */
export function rowErrorField(error: ImportRowError): FieldError & ImportRowError {
  const base = `body.${error.file === 'answers' ? 'answers.' : ''}rows.${error.row}`;
  return { path: error.field ? `${base}.${error.field}` : base, message: error.reason, ...error };
}

/** Whether nothing of the input could be read as rows (not JSON, a bad CSV header): errors on row 0 or no row read. */
export function unreadable(result: ImportResult): boolean {
  return result.errors.length > 0 && (result.total_rows === 0 || result.errors.some((e) => e.row === 0));
}

export interface ImportSummary {
  format: string;
  partial: boolean;
  total_rows: number;
  imported: number;
  created: number;
  updated: number;
  catalogs: string[];
  error_count: number;
  errors: ImportRowError[];
  note_count: number;
  notes: ImportNote[];
}

/** The 200 answer: what was stored, every error (partial imports) and note, listed up to MAX_LISTED_ROWS. */
export function importSummary(result: ImportResult, format: string, partial: boolean, stored: StoredImport): ImportSummary {
  return {
    format,
    partial,
    total_rows: result.total_rows,
    imported: result.cases.length,
    created: stored.created,
    updated: stored.updated,
    catalogs: stored.catalogs,
    error_count: result.errors.length,
    errors: result.errors.slice(0, MAX_LISTED_ROWS),
    note_count: result.notes.length,
    notes: result.notes.slice(0, MAX_LISTED_ROWS),
  };
}

/**
 * The 422 answer of an import that stored nothing: problem+json whose `errors` name each row and field
 * (`body.rows.7.metadata.complexity_level`, with `row`, `id`, `field`), plus `error_count` and `total_rows`.
 */
export function rejectedImport(result: ImportResult, instance: string, partial: boolean): ApiResult {
  const bad = new Set(result.errors.map((e) => `${e.file ?? ''}:${e.row}`)).size;
  const detail = unreadable(result)
    ? `the input could not be read: ${(result.errors.find((e) => e.row === 0) ?? result.errors[0])!.reason}; nothing was imported`
    : partial
      ? `none of the ${result.total_rows} rows is valid; nothing was imported`
      : `${bad} of ${result.total_rows} rows are invalid; nothing was imported (fix them, or send ?partial=true to import the ${Math.max(0, result.total_rows - bad)} valid rows)`;
  const problem = toProblem(
    new ApiError(422, 'Unprocessable Content', detail, result.errors.slice(0, MAX_LISTED_ROWS).map(rowErrorField)),
    instance,
  );
  return {
    status: 422,
    headers: problem.headers,
    body: { ...problem.body, error_count: result.errors.length, total_rows: result.total_rows },
  };
}
