import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { TERMINAL_RUN_STATUSES, type Run, type Scorecard } from '../domain/index.js';
import { NotFoundError, type Stores } from '../ports/index.js';
import { ANALYTICS_COLUMNS, ANALYTICS_SCHEMA_VERSION, analyticsParquetSchema } from './analyticsSchema.js';
import { analyticsRowOf, type AnalyticsRow } from './analyticsRows.js';

/** Rows per Parquet row group (and per write): memory stays flat in the run's size, files stay splittable. */
export const ANALYTICS_ROW_GROUP = 10_000;

/** The run cannot be exported yet (still open) or any more (its scorecards were deleted by retention). */
export class AnalyticsExportUnavailableError extends Error {
  constructor(
    readonly runId: string,
    readonly reason: string,
  ) {
    super(`run ${runId} cannot be exported: ${reason}`);
    this.name = 'AnalyticsExportUnavailableError';
  }
}

export interface AnalyticsExport {
  run_id: string;
  rows: number;
  schema_version: number;
  bytes: Uint8Array;
}

/** The file name of a run's export: `run_id=<id>/<id>.parquet` (a Hive-style partition folder per run). */
export function analyticsFileName(runId: string): string {
  const safe = encodeURIComponent(runId);
  return `run_id=${safe}/${safe}.parquet`;
}

/**
 * A finished run's scorecards as one flat Parquet table (ANALYTICS_COLUMNS, one row per scorecard: per case, and
 * per trial when the run has trials > 1), streamed from the store in row groups of ANALYTICS_ROW_GROUP. The file
 * metadata carries `schema_version`, `run_id` and `exported_at`; every row carries `schema_version` too.
 * Throws NotFoundError for an unknown run, AnalyticsExportUnavailableError for an open run or one whose cases
 * were deleted by retention.
 */
export async function exportRunAnalytics(runId: string, deps: { stores: Stores; now: Date }): Promise<AnalyticsExport> {
  const run = await deps.stores.runs.getRun(runId);
  if (!run) throw new NotFoundError('run', runId);
  if (!TERMINAL_RUN_STATUSES.has(run.status))
    throw new AnalyticsExportUnavailableError(runId, `it is ${run.status}; export a finished run`);
  if (run.retention?.cases_deleted_at)
    throw new AnalyticsExportUnavailableError(runId, `its scorecards were deleted by retention on ${run.retention.cases_deleted_at}`);
  return writeAnalyticsParquet(run, deps.stores.scorecards.iterateScorecards(runId), deps.now);
}

/** Writes `cards` (all of `run`) as the analytics table. */
export async function writeAnalyticsParquet(run: Run, cards: AsyncIterable<Scorecard>, now: Date): Promise<AnalyticsExport> {
  const writer = new ByteWriter();
  const parquet = new ParquetWriter({
    writer,
    schema: analyticsParquetSchema(),
    kvMetadata: [
      { key: 'schema_version', value: String(ANALYTICS_SCHEMA_VERSION) },
      { key: 'run_id', value: run.id },
      { key: 'exported_at', value: now.toISOString() },
      { key: 'producer', value: 'EvalPlatform analytics export (docs/analytics-export.md)' },
    ],
    createdBy: 'EvalPlatform analytics export',
  });
  let batch: AnalyticsRow[] = [];
  let rows = 0;
  const flush = async () => {
    if (!batch.length) return;
    await parquet.write({
      columnData: ANALYTICS_COLUMNS.map((c) => ({ name: c.name, data: batch.map((r) => r[c.name] ?? null) })),
      rowGroupSize: ANALYTICS_ROW_GROUP,
    });
    rows += batch.length;
    batch = [];
  };
  for await (const card of cards) {
    batch.push(analyticsRowOf(run, card));
    if (batch.length >= ANALYTICS_ROW_GROUP) await flush();
  }
  await flush();
  await parquet.finish();
  return { run_id: run.id, rows, schema_version: ANALYTICS_SCHEMA_VERSION, bytes: new Uint8Array(writer.getBuffer()) };
}
