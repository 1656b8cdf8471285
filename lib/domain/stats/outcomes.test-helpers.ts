import fc from 'fast-check';
import type { CaseOutcome } from './caseOutcome.js';
import type { ErrorCode, Scorecard, StageName, StageStatus } from '../index.js';

/** Test support: outcomes and delivery histories for the fold and the run-statistics store. */

export function makeOutcome(overrides: Partial<CaseOutcome> = {}): CaseOutcome {
  return {
    run_id: 'run-1',
    test_case_id: 'case-1',
    attempt_number: 1,
    overall_passed: true,
    overall_score: 1,
    stages: {
      syntax: { status: 'passed' },
      logic: { status: 'passed' },
      execution: { status: 'skipped' },
      semantics: { status: 'skipped' },
    },
    latency_ms: 100,
    input_tokens: 10,
    output_tokens: 5,
    estimated_cost_usd: 0.001,
    category: 'orders',
    tags: ['a'],
    complexity_level: 1,
    client_version: 'model-a',
    ...overrides,
  };
}

const status = fc.constantFrom('passed', 'failed', 'skipped', 'error' as const);

/** Any outcome content (awkward keys such as `__proto__` included) for a fixed case and attempt. */
export function outcomeArbitrary(runId: string, testCaseId: string, attempt: number): fc.Arbitrary<CaseOutcome> {
  return fc
    .record({
      overall_passed: fc.boolean(),
      overall_score: fc.oneof(fc.constantFrom(0, 1, 0.5), fc.double({ min: 0, max: 1, noNaN: true })),
      stages: fc.record({
        syntax: fc.record({ status }),
        logic: fc.record({ status }),
        execution: fc.record({ status }),
        semantics: fc.record({ status }),
      }),
      // target_timeout / target_error / judge_failed and a failing stage with status error are not-scored outcomes
      error_code: fc.option(fc.constantFrom('argument_mismatch', 'target_timeout', 'target_error', 'judge_failed', 'data_mismatch'), {
        nil: undefined,
      }),
      failing_stage: fc.option(fc.constantFrom('syntax', 'logic', 'execution', 'semantics'), { nil: undefined }),
      latency_ms: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 60_000 }), fc.double({ min: 0, max: 120_000, noNaN: true })),
      input_tokens: fc.nat(100_000),
      output_tokens: fc.nat(10_000),
      estimated_cost_usd: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 2, noNaN: true })),
      category: fc.constantFrom(null, 'orders', 'refunds', '__proto__'),
      tags: fc.array(fc.constantFrom('a', 'b', 'constructor', '__proto__'), { maxLength: 4 }),
      complexity_level: fc.integer({ min: 1, max: 5 }),
      client_version: fc.constantFrom(null, 'model-a', 'model-b'),
      efficiency: fc.option(
        fc.record({
          calls_made: fc.nat(8),
          calls_needed: fc.nat(8),
          redundant_calls: fc.nat(3),
          model_turns: fc.nat(6),
          tokens: fc.nat(100_000),
          score: fc.oneof(fc.constantFrom(0, 1, 0.5), fc.double({ min: 0, max: 1, noNaN: true })),
        }),
        { nil: undefined },
      ),
    })
    .map((fields) => {
      const { error_code, failing_stage, efficiency, ...rest } = fields;
      const outcome: CaseOutcome = { run_id: runId, test_case_id: testCaseId, attempt_number: attempt, ...rest };
      if (error_code) outcome.error_code = error_code;
      if (failing_stage) outcome.failing_stage = failing_stage;
      if (efficiency) outcome.efficiency = efficiency;
      return outcome;
    });
}

export interface DeliveryHistory {
  /** the last attempt of every case: what the scorecard store ends up holding */
  finals: CaseOutcome[];
  /** every attempt, in any order, some delivered more than once */
  deliveries: CaseOutcome[];
}

/** Cases of the given runs, each with 1-3 attempts, delivered shuffled with duplicates. */
export function deliveryHistoryArbitrary(runIds: readonly string[], maxCases = 25): fc.Arbitrary<DeliveryHistory> {
  const caseAttempts = fc.tuple(fc.constantFrom(...runIds), fc.integer({ min: 1, max: 3 }));
  return fc
    .uniqueArray(fc.tuple(fc.nat(maxCases * 4), caseAttempts), { selector: ([id, [run]]) => `${run}|${id}`, maxLength: maxCases })
    .chain((cases) =>
      fc.tuple(
        ...cases.map(([id, [run, attempts]]) =>
          fc.tuple(...Array.from({ length: attempts }, (_, i) => outcomeArbitrary(run, `case-${id}`, i + 1))),
        ),
      ),
    )
    .chain((perCase) => {
      const all = perCase.flat();
      const finals = perCase.map((attempts) => attempts[attempts.length - 1] as CaseOutcome);
      const duplicated = fc
        .array(fc.nat(Math.max(0, all.length - 1)), { maxLength: all.length })
        .map((ix) => [...all, ...(all.length ? ix.map((i) => all[i] as CaseOutcome) : [])]);
      return duplicated
        .chain((list) => fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }))
        .map((deliveries) => ({ finals, deliveries }));
    });
}

const stage = (name: StageName, status: StageStatus) => ({
  stage: name,
  status,
  passed: status === 'passed',
  score: status === 'passed' ? 1 : null,
  duration_ms: 0,
});

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
