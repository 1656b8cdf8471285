import { afterEach, describe, expect, it } from 'vitest';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { createEmbeddedStores } from '../adapters/embedded/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { sampleRun, sampleScorecard } from '../ports/contracts/index.js';
import { NotFoundError } from '../ports/index.js';
import type { Scorecard } from '../domain/index.js';
import { ANALYTICS_COLUMNS, ANALYTICS_SCHEMA_VERSION } from './analyticsSchema.js';
import { AnalyticsExportUnavailableError, analyticsFileName, exportRunAnalytics } from './analyticsParquet.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());
const NOW = new Date('2026-03-02T08:00:00.000Z');

function storesWith() {
  const { db, changeLog } = temps.open();
  return createEmbeddedStores(db, changeLog);
}

const toBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

describe('exportRunAnalytics (Parquet)', () => {
  it('writes one row per scorecard with typed columns and the values of a known case, read back with hyparquet', async () => {
    const stores = storesWith();
    await stores.runs.createRun(
      sampleRun('run-a', { status: 'completed', client_id: 'team-x', suite_version: 3, completed_at: '2026-03-01T13:00:00.000Z' }),
    );
    const failed: Scorecard = {
      ...sampleScorecard('run-a', 'case-2', {
        passed: false,
        failing_stage: 'logic',
        error_code: 'argument_mismatch',
        tags: ['search', 'eu'],
      }),
      client_type: 'openai',
      client_version: 'simulated-model-a',
      input_tokens: 1234,
      output_tokens: 56,
      estimated_cost_usd: 0.0125,
      latency_ms: 842.5,
      suite_version: 3,
    };
    const notScored: Scorecard = {
      ...sampleScorecard('run-a', 'case-3', { passed: false, failing_stage: 'syntax', error_code: 'target_timeout' }),
    };
    notScored.stages.syntax = { ...notScored.stages.syntax, status: 'error', score: null };
    const trial2: Scorecard = { ...sampleScorecard('run-a', 'case-1#trial-2'), test_case_id: 'case-1#trial-2', trial: 2 };
    await stores.scorecards.upsertScorecards([sampleScorecard('run-a', 'case-1'), failed, notScored, trial2]);

    const result = await exportRunAnalytics('run-a', { stores, now: NOW });
    expect(result.rows).toBe(4);
    const file = toBuffer(result.bytes);
    const meta = parquetMetadata(file);
    expect(Number(meta.num_rows)).toBe(await stores.scorecards.countScorecards('run-a'));
    const kv = Object.fromEntries((meta.key_value_metadata ?? []).map((e) => [e.key, e.value]));
    expect(kv).toMatchObject({ schema_version: String(ANALYTICS_SCHEMA_VERSION), run_id: 'run-a', exported_at: NOW.toISOString() });

    // column types as documented: the leaf schema elements in order
    const byName = new Map(meta.schema.map((e) => [e.name, e]));
    expect(byName.get('overall_passed')).toMatchObject({ type: 'BOOLEAN', repetition_type: 'REQUIRED' });
    expect(byName.get('logic_score')).toMatchObject({ type: 'DOUBLE', repetition_type: 'OPTIONAL' });
    expect(byName.get('input_tokens')).toMatchObject({ type: 'INT64' });
    expect(byName.get('scored_at')).toMatchObject({ type: 'INT64', converted_type: 'TIMESTAMP_MILLIS' });
    expect(byName.get('tags')).toMatchObject({ converted_type: 'LIST' });
    expect(byName.get('error_code')).toMatchObject({ type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' });

    const rows = (await parquetReadObjects({ file })) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(4);
    expect(Object.keys(rows[0]!)).toEqual(ANALYTICS_COLUMNS.map((c) => c.name));
    const row = rows.find((r) => r.test_case_id === 'case-2')!;
    expect(row).toMatchObject({
      schema_version: ANALYTICS_SCHEMA_VERSION,
      run_id: 'run-a',
      trial: 1,
      client_id: 'team-x',
      suite_id: 'suite-1',
      suite_version: 3,
      target_id: 'target-1',
      client_type: 'openai',
      model: 'simulated-model-a',
      run_status: 'completed',
      category: 'weather',
      tags: ['search', 'eu'],
      overall_passed: false,
      overall_score: 0.3,
      outcome: 'failed',
      outcome_kind: 'scored',
      failing_stage: 'logic',
      error_code: 'argument_mismatch',
      syntax_status: 'passed',
      syntax_passed: true,
      syntax_score: 1,
      logic_status: 'failed',
      logic_passed: false,
      logic_score: 0,
      execution_status: 'skipped',
      execution_score: null,
      latency_ms: 842.5,
      input_tokens: 1234n,
      output_tokens: 56n,
      total_tokens: 1290n,
      estimated_cost_usd: 0.0125,
      attempt_number: 1,
    });
    expect((row.scored_at as Date).toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect((row.run_completed_at as Date).toISOString()).toBe('2026-03-01T13:00:00.000Z');
    expect(rows.find((r) => r.test_case_id === 'case-3')).toMatchObject({
      outcome: 'not_scored',
      outcome_kind: 'not_scored',
      syntax_score: null,
    });
    expect(rows.find((r) => r.trial === 2)).toMatchObject({ test_case_id: 'case-1#trial-2' });
    expect(analyticsFileName('run a/1')).toBe('run_id=run%20a%2F1/run%20a%2F1.parquet');
  });

  it('spans several row groups for a run larger than one group, every row once', async () => {
    const stores = storesWith();
    await stores.runs.createRun(sampleRun('run-big', { status: 'degraded', total_cases: 10_050 }));
    const cards = Array.from({ length: 10_050 }, (_, i) =>
      sampleScorecard('run-big', `c-${String(i).padStart(5, '0')}`, { passed: i % 3 > 0 }),
    );
    for (let i = 0; i < cards.length; i += 1000) await stores.scorecards.upsertScorecards(cards.slice(i, i + 1000));
    const result = await exportRunAnalytics('run-big', { stores, now: NOW });
    const file = toBuffer(result.bytes);
    const meta = parquetMetadata(file);
    expect(meta.row_groups.length).toBe(2);
    expect(Number(meta.num_rows)).toBe(10_050);
    const rows = (await parquetReadObjects({ file, columns: ['test_case_id', 'overall_passed'] })) as Array<{
      test_case_id: string;
      overall_passed: boolean;
    }>;
    expect(new Set(rows.map((r) => r.test_case_id)).size).toBe(10_050);
    expect(rows.filter((r) => r.overall_passed).length).toBe(cards.filter((c) => c.overall_passed).length);
  });

  it('a finished run without scorecards gives a valid empty table; open, unknown and retention-deleted runs are refused', async () => {
    const stores = storesWith();
    await stores.runs.createRun(sampleRun('run-empty', { status: 'completed', total_cases: 0 }));
    const empty = await exportRunAnalytics('run-empty', { stores, now: NOW });
    expect(empty.rows).toBe(0);
    expect(await parquetReadObjects({ file: toBuffer(empty.bytes) })).toEqual([]);
    await stores.runs.createRun(sampleRun('run-open', { status: 'running' }));
    await expect(exportRunAnalytics('run-open', { stores, now: NOW })).rejects.toThrow(AnalyticsExportUnavailableError);
    await expect(exportRunAnalytics('nope', { stores, now: NOW })).rejects.toThrow(NotFoundError);
    await stores.runs.createRun(
      sampleRun('run-old', {
        status: 'completed',
        retention: { started_at: NOW.toISOString(), cases_deleted_at: NOW.toISOString(), retention_days: 30 },
      }),
    );
    await expect(exportRunAnalytics('run-old', { stores, now: NOW })).rejects.toThrow(/deleted by retention/);
  });
});
