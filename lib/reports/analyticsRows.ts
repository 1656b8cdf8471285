import { outcomeKindOf, STAGE_NAMES, type Run, type Scorecard } from '../domain/index.js';
import { ANALYTICS_SCHEMA_VERSION } from './analyticsSchema.js';

/** One row of the analytics table: column name to value (null for an empty optional column). */
export type AnalyticsRow = Record<string, string | number | bigint | boolean | Date | string[] | null>;

const date = (iso: string): Date => new Date(Date.parse(iso));

/** The analytics row of one scorecard of `run` (ANALYTICS_COLUMNS, in their order). Pure. */
export function analyticsRowOf(run: Run, card: Scorecard): AnalyticsRow {
  const outcome = card.outcome ?? outcomeKindOf(card);
  const row: AnalyticsRow = {
    schema_version: ANALYTICS_SCHEMA_VERSION,
    run_id: run.id,
    test_case_id: card.test_case_id,
    trial: card.trial ?? 1,
    client_id: run.client_id,
    suite_id: run.suite_id,
    suite_version: card.suite_version ?? run.suite_version ?? null,
    target_id: run.target_id,
    client_type: card.client_type,
    model: card.client_version,
    eval_mode: card.eval_mode,
    run_status: run.status,
    triggered_by: run.triggered_by,
    category: card.category,
    complexity_level: card.complexity_level,
    tags: [...card.tags],
    overall_passed: card.overall_passed,
    overall_score: card.overall_score,
    outcome,
    outcome_kind: outcome === 'not_scored' ? 'not_scored' : 'scored',
    failing_stage: card.failing_stage ?? null,
    error_code: card.error_code ?? null,
  };
  for (const stage of STAGE_NAMES) {
    const result = card.stages[stage];
    row[`${stage}_status`] = result.status;
    row[`${stage}_passed`] = result.passed;
    row[`${stage}_score`] = result.score;
  }
  Object.assign(row, {
    latency_ms: card.latency_ms,
    evaluation_ms: card.evaluation_ms,
    input_tokens: BigInt(card.input_tokens),
    output_tokens: BigInt(card.output_tokens),
    total_tokens: BigInt(card.input_tokens + card.output_tokens),
    api_calls_made: card.api_calls_made,
    estimated_cost_usd: card.estimated_cost_usd,
    attempt_number: card.attempt_number,
    case_hash: card.case_hash ?? null,
    scored_at: date(card.timestamp),
    run_created_at: date(run.created_at),
    run_completed_at: run.completed_at ? date(run.completed_at) : null,
  });
  return row;
}
