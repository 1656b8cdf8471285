import { stat, readFile } from 'node:fs/promises';
import type { TestCase } from '../../../domain/index.js';
import type { ImportResult } from '../../../goldset/index.js';
import type { ImportSummary } from '../../../api/index.js';
import type { ApiTarget } from '../../apiClient.js';
import { reasonWithSuggestion } from './fieldSuggestion.js';
import { CliError } from '../../cliError.js';
import { apiFetch, rowLabel } from './casesHttp.js';
import { CONTENT_TYPES, readGoldFile, type GoldFileInput } from './readGoldFile.js';

/** Cases per request when a file is sent in batches. */
export const DEFAULT_BATCH_SIZE = 5_000;
/** A file up to this size (and up to one batch of rows) is sent as it is, in one request. */
export const SINGLE_REQUEST_BYTES = 8 * 1024 * 1024;
/** The server's import limit (lib/api/routes/testCases/import.ts). */
const MAX_REQUEST_BYTES = 100 * 1024 * 1024;

export interface ImportCasesOptions extends GoldFileInput {
  partial?: boolean;
  source?: string;
  /** cases per request in batch mode (default 5,000) */
  batchSize?: number;
  onValidated?(result: ImportResult, ms: number): void;
  /** after each batch (batch mode only) */
  onProgress?(sent: number, total: number): void;
}

/** The server's import summary (without the partial flag and the notes' text), plus how the file was sent. */
export interface ImportCasesSummary extends Omit<ImportSummary, 'partial' | 'notes'> {
  file: string;
  /** `single`: the file as it is, in one request; `batches`: validated cases as JSON Lines, in batches */
  mode: 'single' | 'batches';
  requests: number;
  validate_ms: number;
  send_ms: number;
}

/**
 * Imports a gold file into the platform, all or nothing unless `partial`:
 * 1. the whole file is validated here first with the platform's own importers: a bad row stops everything before
 *    anything is sent (CliError listing rows, fields and reasons);
 * 2. a small file (<= 8 MiB and <= one batch) or a BFCL pair goes as it is, in one request (the server validates it
 *    again and keeps its row numbers);
 * 3. a bigger one goes as its validated cases in JSON Lines batches (default 5,000, in file order), each an upsert:
 *    if a request fails midway the batches before it stay imported (re-running the import is safe: ids upsert).
 */
export async function importCasesFile(target: ApiTarget, options: ImportCasesOptions): Promise<ImportCasesSummary> {
  const started = performance.now();
  const local = await readGoldFile(options, { partial: options.partial ?? false, ...(options.source ? { source: options.source } : {}) });
  const validateMs = performance.now() - started;
  options.onValidated?.(local, validateMs);
  if (local.errors.length > 0 && (!options.partial || local.cases.length === 0))
    throw rejected(options.file, local, options.partial ?? false);
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const bytes = (await stat(options.file)).size + (options.answers ? (await stat(options.answers)).size : 0);
  const base = {
    file: options.file,
    format: options.format,
    total_rows: local.total_rows,
    error_count: local.errors.length,
    errors: local.errors,
    note_count: local.notes.length,
    validate_ms: Math.round(validateMs),
  };
  const sendStarted = performance.now();
  if (options.format === 'bfcl' || (bytes <= SINGLE_REQUEST_BYTES && local.total_rows <= batchSize)) {
    if (bytes > MAX_REQUEST_BYTES)
      throw new CliError(
        `${options.file} is ${bytes} bytes; a BFCL import is sent in one request of at most ${MAX_REQUEST_BYTES} bytes: split it`,
      );
    const server = await sendWhole(target, options);
    return {
      ...base,
      mode: 'single',
      requests: 1,
      imported: server.imported,
      created: server.created,
      updated: server.updated,
      catalogs: server.catalogs,
      send_ms: Math.round(performance.now() - sendStarted),
    };
  }
  const sent = await sendBatches(target, local.cases, batchSize, options.onProgress);
  return { ...base, mode: 'batches', ...sent, catalogs: [], send_ms: Math.round(performance.now() - sendStarted) };
}

async function sendWhole(target: ApiTarget, options: ImportCasesOptions): Promise<ImportSummary> {
  const query = new URLSearchParams({ partial: String(options.partial ?? false), ...(options.source ? { source: options.source } : {}) });
  if (options.format === 'bfcl') {
    query.set('format', 'bfcl');
    const envelope = {
      questions: await readFile(options.file, 'utf8'),
      ...(options.answers ? { answers: await readFile(options.answers, 'utf8') } : {}),
      ...(options.category ? { category: options.category } : {}),
      ...(options.functions
        ? {
            functions: Object.fromEntries(
              await Promise.all(Object.entries(options.functions).map(async ([name, path]) => [name, await readFile(path, 'utf8')])),
            ),
          }
        : {}),
    };
    return postImport(target, query, JSON.stringify(envelope), 'application/json');
  }
  return postImport(target, query, await readFile(options.file, 'utf8'), CONTENT_TYPES[options.format]);
}

async function sendBatches(
  target: ApiTarget,
  cases: TestCase[],
  batchSize: number,
  onProgress?: (sent: number, total: number) => void,
): Promise<{ requests: number; imported: number; created: number; updated: number }> {
  const totals = { requests: 0, imported: 0, created: 0, updated: 0 };
  const query = new URLSearchParams({ partial: 'false' });
  const bodyAt = (start: number): string =>
    cases
      .slice(start, start + batchSize)
      .map((c) => JSON.stringify(c))
      .join('\n');
  // one request at a time keeps the file's order (the store's order is first insertion); the next body is
  // serialised while the current request is in flight, so the server is rarely idle
  let body = bodyAt(0);
  for (let start = 0; start < cases.length; start += batchSize) {
    const sending = postImport(target, query, body, 'application/x-ndjson');
    body = start + batchSize < cases.length ? bodyAt(start + batchSize) : '';
    let summary: ImportSummary;
    try {
      summary = await sending;
    } catch (err) {
      throw err instanceof CliError
        ? new CliError(
            `${err.message}\n${totals.imported} of ${cases.length} cases were imported before this error; importing the file again is safe (cases upsert by id)`,
          )
        : err;
    }
    totals.requests += 1;
    totals.imported += summary.imported;
    totals.created += summary.created;
    totals.updated += summary.updated;
    onProgress?.(totals.imported, cases.length);
  }
  return totals;
}

async function postImport(target: ApiTarget, query: URLSearchParams, body: string, contentType: string): Promise<ImportSummary> {
  const res = await apiFetch(target, 'POST', `v1/test-cases/import?${query}`, { body, contentType });
  return (await res.json()) as ImportSummary;
}

export function rejected(file: string, result: ImportResult, partial: boolean): CliError {
  const lines = result.errors
    .slice(0, 20)
    .map(
      (e) =>
        `  ${e.file === 'answers' ? 'answers ' : ''}${rowLabel(e.row, e.id)}: ${e.field || '(row)'}: ${reasonWithSuggestion(e.field, e.reason)}`,
    );
  if (result.errors.length > lines.length) lines.push(`  ... and ${result.errors.length - lines.length} more errors`);
  const bad = invalidRows(result.errors);
  const errors = `${result.errors.length} error${result.errors.length === 1 ? '' : 's'}`;
  const what =
    partial || result.total_rows === 0
      ? `no valid row in ${file} (${errors})`
      : `${bad} of ${result.total_rows} rows of ${file} are invalid (${errors})`;
  const hint = partial || result.total_rows === 0 ? '' : ' (fix them, or pass --partial to import the valid rows)';
  return new CliError(`${what}; nothing was imported${hint}:\n${lines.join('\n')}`);
}

/** How many rows the errors fall in (a row can have several errors; BFCL answer rows count apart). */
export function invalidRows(errors: readonly { row: number; file?: string }[]): number {
  return new Set(errors.map((e) => `${e.file ?? ''}:${e.row}`)).size;
}
