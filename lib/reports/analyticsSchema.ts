import type { SchemaElement } from 'hyparquet-writer';
import { STAGE_NAMES } from '../domain/index.js';

/**
 * The version of the analytics table (docs/analytics-export.md). Bump it whenever a column is added, removed,
 * renamed or changes type, and add the new column list to analyticsSchema.snapshot.json: the snapshot test fails
 * while the columns differ from the snapshot of this version.
 */
export const ANALYTICS_SCHEMA_VERSION = 1;

/** The column types of the analytics table (Parquet physical type + logical annotation). */
export type AnalyticsColumnType = 'STRING' | 'BOOLEAN' | 'INT32' | 'INT64' | 'DOUBLE' | 'TIMESTAMP' | 'STRING_LIST';

export interface AnalyticsColumn {
  name: string;
  type: AnalyticsColumnType;
  /** false: every row has a value */
  nullable: boolean;
  description: string;
}

const col = (name: string, type: AnalyticsColumnType, nullable: boolean, description: string): AnalyticsColumn => ({
  name,
  type,
  nullable,
  description,
});

const stageColumns = STAGE_NAMES.flatMap((stage) => [
  col(`${stage}_status`, 'STRING', false, `stage ${stage}: passed, failed, skipped (not run) or error (could not score)`),
  col(`${stage}_passed`, 'BOOLEAN', false, `stage ${stage} passed`),
  col(`${stage}_score`, 'DOUBLE', true, `stage ${stage} score 0-1; null when skipped or not scored (never confused with 0)`),
]);

/** Every column of the table, in file order: one row per scorecard (per case, per trial when trials > 1). */
export const ANALYTICS_COLUMNS: readonly AnalyticsColumn[] = [
  col('schema_version', 'INT32', false, 'the version of this table layout (ANALYTICS_SCHEMA_VERSION)'),
  col('run_id', 'STRING', false, 'the run'),
  col('test_case_id', 'STRING', false, 'the case (gold-set id)'),
  col('trial', 'INT32', false, 'the trial 1..k (runs with trials: k have k rows per case)'),
  col('client_id', 'STRING', true, 'the client (team) the run belongs to; null for ad-hoc runs'),
  col('suite_id', 'STRING', false, 'the suite evaluated'),
  col('suite_version', 'INT32', true, 'the published suite version evaluated; null: the live suite'),
  col('target_id', 'STRING', false, 'the target system (agent) evaluated'),
  col('client_type', 'STRING', false, 'the model family / provider kind the target reported'),
  col('model', 'STRING', true, 'the model (version) that answered, as the target reported it'),
  col('eval_mode', 'STRING', false, 'offline, replay or live'),
  col('run_status', 'STRING', false, 'the run status at export (completed or degraded)'),
  col('triggered_by', 'STRING', false, 'api, schedule, github, cli, demo or retry'),
  col('category', 'STRING', true, 'the case category'),
  col('complexity_level', 'INT32', false, 'the case complexity 1-5'),
  col('tags', 'STRING_LIST', false, 'the case tags (LIST<STRING>)'),
  col('overall_passed', 'BOOLEAN', false, 'the case passed every stage that ran'),
  col('overall_score', 'DOUBLE', false, 'the case score 0-1'),
  col('outcome', 'STRING', false, 'passed, failed (the model) or not_scored (infrastructure: target, judge, network)'),
  col('outcome_kind', 'STRING', false, 'scored or not_scored: filter not_scored rows out of pass rates'),
  col('failing_stage', 'STRING', true, 'the first stage that failed'),
  col('error_code', 'STRING', true, 'the failing stage error code (lib/domain/stageResult.ts ERROR_CODES)'),
  ...stageColumns,
  col('latency_ms', 'DOUBLE', false, 'target latency in milliseconds (0 for offline scoring)'),
  col('evaluation_ms', 'DOUBLE', false, 'time spent in the four stages, milliseconds'),
  col('input_tokens', 'INT64', false, 'input tokens the target reported'),
  col('output_tokens', 'INT64', false, 'output tokens the target reported'),
  col('total_tokens', 'INT64', false, 'input_tokens + output_tokens'),
  col('api_calls_made', 'INT32', false, 'tool calls executed in stage 3'),
  col('estimated_cost_usd', 'DOUBLE', false, 'estimated target cost in US dollars'),
  col('attempt_number', 'INT32', false, 'the delivery attempt that wrote the scorecard'),
  col('case_hash', 'STRING', true, 'content hash of the case body evaluated (pairs cases across suite versions)'),
  col('scored_at', 'TIMESTAMP', false, 'when the scorecard was written (UTC, milliseconds)'),
  col('run_created_at', 'TIMESTAMP', false, 'when the run was created (UTC)'),
  col('run_completed_at', 'TIMESTAMP', true, 'when the run finished (UTC)'),
];

/** The Parquet schema of the table (flat; `tags` a 3-level LIST of UTF8 strings). */
export function analyticsParquetSchema(columns: readonly AnalyticsColumn[] = ANALYTICS_COLUMNS): SchemaElement[] {
  const schema: SchemaElement[] = [{ name: 'root', num_children: columns.length }];
  for (const c of columns) {
    const repetition_type = c.nullable ? 'OPTIONAL' : 'REQUIRED';
    switch (c.type) {
      case 'STRING':
        schema.push({ name: c.name, repetition_type, type: 'BYTE_ARRAY', converted_type: 'UTF8' });
        break;
      case 'TIMESTAMP':
        schema.push({ name: c.name, repetition_type, type: 'INT64', converted_type: 'TIMESTAMP_MILLIS' });
        break;
      case 'STRING_LIST':
        schema.push({ name: c.name, repetition_type, converted_type: 'LIST', num_children: 1 });
        schema.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
        schema.push({ name: 'element', repetition_type: 'REQUIRED', type: 'BYTE_ARRAY', converted_type: 'UTF8' });
        break;
      default:
        schema.push({ name: c.name, repetition_type, type: c.type });
    }
  }
  return schema;
}
