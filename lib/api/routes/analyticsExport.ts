import { z } from 'zod';
import { AnalyticsExportUnavailableError, exportRunAnalytics, ANALYTICS_SCHEMA_VERSION } from '../../reports/index.js';
import { ApiError } from '../problem.js';
import { defineRoute, type RouteDefinition } from '../route.js';

/** The media type of Apache Parquet files (IANA registration). */
export const PARQUET_MEDIA_TYPE = 'application/vnd.apache.parquet';

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/**
 * `GET /api/v1/runs/{id}/analytics`: the run's scorecards as the analytics table (docs/analytics-export.md), a
 * Parquet file built on request from the stored scorecards (the same bytes the export function writes).
 */
export const runAnalyticsRoute = defineRoute({
  name: 'runs-analytics-export',
  method: 'GET',
  path: 'v1/runs/{id}/analytics',
  role: 'reader',
  tag: 'reports',
  summary:
    'Download a finished run as the flat analytics table (Parquet, one row per case and trial, schema_version in the file metadata and every row; docs/analytics-export.md)',
  params: z.object({ id: z.string().min(1) }).strict(),
  query: z.object({ format: z.literal('parquet').default('parquet') }).strict(),
  responseMediaTypes: [PARQUET_MEDIA_TYPE],
  responses: {
    200: 'the Parquet file (X-Row-Count: rows, X-Schema-Version: the table version)',
    404: 'no such run',
    409: 'the run is still open, or its scorecards were deleted by retention',
  },
  handler: async ({ services, params }) => {
    try {
      const file = await exportRunAnalytics(params.id, { stores: services.stores, now: services.clock.now() });
      return {
        status: 200,
        headers: {
          'content-type': PARQUET_MEDIA_TYPE,
          'content-disposition': `attachment; filename="${params.id.replace(/[^A-Za-z0-9._-]/g, '_')}.parquet"`,
          'x-row-count': String(file.rows),
          'x-schema-version': String(ANALYTICS_SCHEMA_VERSION),
          'cache-control': 'no-store',
        },
        stream: once(file.bytes),
      };
    } catch (err) {
      if (err instanceof AnalyticsExportUnavailableError) throw new ApiError(409, 'Conflict', err.message);
      throw err;
    }
  },
});

export const ANALYTICS_ROUTES: readonly RouteDefinition[] = [runAnalyticsRoute];
