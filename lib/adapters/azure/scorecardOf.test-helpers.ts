import type { ErrorCode, Scorecard, StageName, StageStatus } from '../../domain/index.js';
import type { CaseOutcome } from '../../runs/stats/index.js';

const stage = (name: StageName, status: StageStatus) => ({ stage: name, status, passed: status === 'passed', score: status === 'passed' ? 1 : null, duration_ms: 0 });

/** Test support: a full scorecard whose outcome (caseOutcomeOf) is `o`. */
export function scorecardOf(o: CaseOutcome): Scorecard {
  const card: Scorecard = {
    run_id: o.run_id,
    test_case_id: o.test_case_id,
    timestamp: '2026-01-01T00:00:00Z',
    stages: {
      syntax: stage('syntax', o.stages.syntax.status),
      logic: stage('logic', o.stages.logic.status),
      execution: stage('execution', o.stages.execution.status),
      semantics: stage('semantics', o.stages.semantics.status),
    },
    generated_tool_calls: [],
    generated_nl_response: null,
    tool_results: [],
    overall_passed: o.overall_passed,
    overall_score: o.overall_score,
    latency_ms: o.latency_ms,
    evaluation_ms: 0,
    worker_id: 'w1',
    attempt_number: o.attempt_number,
    client_type: 'test',
    client_version: o.client_version,
    eval_mode: 'replay',
    input_tokens: o.input_tokens,
    output_tokens: o.output_tokens,
    api_calls_made: 0,
    estimated_cost_usd: o.estimated_cost_usd,
    category: o.category,
    tags: o.tags,
    complexity_level: o.complexity_level,
  };
  if (o.failing_stage) card.failing_stage = o.failing_stage as StageName;
  if (o.error_code) card.error_code = o.error_code as ErrorCode;
  return card;
}
