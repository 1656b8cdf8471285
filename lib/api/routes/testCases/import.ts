import { z } from 'zod';
import { importCases } from '../../../goldset/index.js';
import { ApiError } from '../../problem.js';
import { defineRoute } from '../../route.js';
import { readImport } from './importBody.js';
import { IMPORT_FORMATS, IMPORT_MEDIA_TYPES, importFormatOf } from './importFormat.js';
import { importSummary, rejectedImport, unreadable } from './importResult.js';

/** The largest import body: Azure Functions' own HTTP request limit (100 MiB); the embedded host allows as much. */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;
/**
 * The most rows one request may carry (JSON Lines, CSV, a BFCL question file): an import holds its cases in memory
 * until they are written, and the platform runs with a 1 GiB heap. Counted as lines before parsing (413 over it).
 */
export const MAX_IMPORT_ROWS = 100_000;

/** Lines of a text (a last line without '\n' counts). */
export function lineCount(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return text.length > 0 && !text.endsWith('\n') ? count + 1 : count;
}

export const importTestCasesRoute = defineRoute({
  name: 'test-cases-import',
  method: 'POST',
  path: 'v1/test-cases/import',
  role: 'test-admin',
  tag: 'test-cases',
  summary:
    'Import cases (created or replaced by id) from JSON, JSON Lines, CSV or BFCL; every row is validated first and, unless ?partial=true, one bad row imports nothing',
  query: z
    .object({
      format: z
        .enum(IMPORT_FORMATS)
        .optional()
        .describe(
          'default: from the Content-Type; bfcl: a JSON envelope {questions, answers, category}, multipart parts of those names, or the question file alone as JSON Lines',
        ),
      partial: z
        .enum(['true', 'false'])
        .default('false')
        .transform((v) => v === 'true')
        .describe('true: import the valid rows and list the bad ones'),
      source: z.string().min(1).optional().describe('metadata.source for cases that have none'),
    })
    .strict(),
  rawBody: { mediaTypes: Object.keys(IMPORT_MEDIA_TYPES), maxBytes: MAX_IMPORT_BYTES },
  responses: {
    200: 'imported: counts, catalogs, and the errors (partial) and notes listed by row and field',
    400: 'invalid query, or a BFCL envelope or multipart body that cannot be read',
    413: `the body is over ${MAX_IMPORT_BYTES} bytes or ${MAX_IMPORT_ROWS} lines (split the file: evalp cases import does)`,
    415: 'a Content-Type the import does not read, or one that does not fit ?format=',
    422: 'invalid rows (errors name the row and field); nothing was imported',
  },
  handler: async ({ services, query, rawBody, url }) => {
    const format = importFormatOf(rawBody!.mediaType, query.format);
    if (
      rawBody!.mediaType !== 'application/json' &&
      rawBody!.mediaType !== 'multipart/form-data' &&
      lineCount(rawBody!.text) > MAX_IMPORT_ROWS
    ) {
      throw new ApiError(
        413,
        'Payload Too Large',
        `the body has more than ${MAX_IMPORT_ROWS} lines; send at most ${MAX_IMPORT_ROWS} rows per request (evalp cases import splits a file into batches)`,
      );
    }
    const result = await readImport(rawBody!, format, { partial: query.partial, ...(query.source ? { source: query.source } : {}) });
    if (result.errors.length > 0 && (!query.partial || unreadable(result) || result.cases.length === 0))
      return rejectedImport(result, url.pathname, query.partial);
    return { status: 200, body: importSummary(result, format, query.partial, await importCases(services.stores, result)) };
  },
});
