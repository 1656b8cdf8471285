import { z } from 'zod';
import type { TestCase, TestCaseFilter } from '../../../domain/index.js';
import { exportCsv, exportJsonl } from '../../../goldset/index.js';
import type { TestCaseStore } from '../../../ports/index.js';
import { defineRoute } from '../../route.js';
import { filterQuery } from './filterQuery.js';

/** Cases read per getTestCases call while exporting. */
export const EXPORT_READ_BATCH = 1_000;
/** Bytes gathered before a chunk is sent. */
export const EXPORT_CHUNK_BYTES = 64 * 1024;

const FORMATS = {
  jsonl: { contentType: 'application/x-ndjson; charset=utf-8', write: exportJsonl },
  csv: { contentType: 'text/csv; charset=utf-8', write: exportCsv },
} as const;

/** Every case matching `filter`, in store order, read in batches (memory stays flat). */
export async function* casesMatching(store: TestCaseStore, filter: TestCaseFilter): AsyncGenerator<TestCase> {
  let ids: string[] = [];
  for await (const id of store.listTestCaseIds(filter)) {
    ids.push(id);
    if (ids.length === EXPORT_READ_BATCH) {
      yield* await store.getTestCases(ids);
      ids = [];
    }
  }
  if (ids.length > 0) yield* await store.getTestCases(ids);
}

/** Joins small pieces of text into chunks of about `size` characters. */
export async function* coalesce(pieces: AsyncIterable<string>, size = EXPORT_CHUNK_BYTES): AsyncGenerator<string> {
  let buffer = '';
  for await (const piece of pieces) {
    buffer += piece;
    if (buffer.length >= size) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer !== '') yield buffer;
}

export const exportTestCasesRoute = defineRoute({
  name: 'test-cases-export',
  method: 'GET',
  path: 'v1/test-cases/export',
  role: 'reader',
  tag: 'test-cases',
  summary: 'Export the cases matching the list filters, streamed as JSON Lines (default) or CSV; import reads either back unchanged',
  query: filterQuery({ format: z.enum(['jsonl', 'csv']).default('jsonl') }),
  responseMediaTypes: ['application/x-ndjson', 'text/csv'],
  responses: { 200: 'the cases, streamed (X-Total-Count: how many matched when the export started)', 400: 'invalid filter or format' },
  handler: async ({ services, query }) => {
    const { filter, format } = query;
    const store = services.stores.testCases;
    const total = await store.countTestCases(filter);
    return {
      status: 200,
      headers: {
        'content-type': FORMATS[format].contentType,
        'content-disposition': `attachment; filename="test-cases.${format}"`,
        'x-total-count': String(total),
      },
      stream: coalesce(FORMATS[format].write(casesMatching(store, filter))),
    };
  },
});
