import { NotFoundError, type AnalyticsSink, type Clock, type Stores } from '../ports/index.js';
import { AnalyticsExportUnavailableError, analyticsFileName, exportRunAnalytics } from './analyticsParquet.js';

export type AnalyticsPublishResult =
  | { run_id: string; written: true; location: string; rows: number; schema_version: number }
  | { run_id: string; written: false; reason: string };

/**
 * Writes a finished run's analytics table to the sink at `analyticsFileName(run)` (what the run-completed
 * function does). Idempotent: a repeated call replaces the file with the same rows. A run that cannot be
 * exported (still open, unknown, cases deleted by retention) is reported, not thrown: redelivering would not help.
 */
export async function publishRunAnalytics(
  runId: string,
  deps: { stores: Stores; sink: AnalyticsSink; clock: Clock },
): Promise<AnalyticsPublishResult> {
  let file;
  try {
    file = await exportRunAnalytics(runId, { stores: deps.stores, now: deps.clock.now() });
  } catch (err) {
    if (err instanceof AnalyticsExportUnavailableError) return { run_id: runId, written: false, reason: err.reason };
    if (err instanceof NotFoundError) return { run_id: runId, written: false, reason: 'the run does not exist' };
    throw err;
  }
  const { location } = await deps.sink.writeFile(analyticsFileName(runId), file.bytes, {
    schema_version: String(file.schema_version),
    run_id: runId,
    rows: String(file.rows),
  });
  return { run_id: runId, written: true, location, rows: file.rows, schema_version: file.schema_version };
}
