import { z } from 'zod';
import { type Scorecard } from '../scorecard.js';
import { OutcomeEfficiencySchema } from '../efficiency.js';
import { scorecardKeyOf, trialKey } from '../trial.js';

const StageStatusOnly = z.object({ status: z.enum(['passed', 'failed', 'skipped', 'error']) });

/**
 * The part of a scorecard that run statistics need. The embedded scorecard store puts exactly this on the
 * change feed (small rows, 400k per run); in Azure the feed delivers whole scorecards, which parse as this
 * too (extra fields are ignored). Keyed (run_id, test_case_id); attempt_number orders retries.
 */
export const CaseOutcomeSchema = z
  .object({
    run_id: z.string().min(1),
    test_case_id: z.string().min(1),
    attempt_number: z.number().int().positive(),
    overall_passed: z.boolean(),
    overall_score: z.number().min(0).max(1),
    stages: z.object({ syntax: StageStatusOnly, logic: StageStatusOnly, execution: StageStatusOnly, semantics: StageStatusOnly }),
    failing_stage: z.string().optional(),
    error_code: z.string().optional(),
    latency_ms: z.number().nonnegative(),
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    estimated_cost_usd: z.number().nonnegative(),
    category: z.string().nullable(),
    tags: z.array(z.string()),
    complexity_level: z.number().int().min(1).max(5),
    client_version: z.string().nullable(),
    /** the case's efficiency (calls made and needed, redundant calls, turns, tokens, score), when it has one */
    efficiency: OutcomeEfficiencySchema.optional(),
    /** a whole scorecard of a trial after the first (the Azure feed delivers whole cards): keyed by its trial key */
    trial: z.number().int().optional(),
  })
  .transform(({ trial, ...outcome }) =>
    trial !== undefined && trial > 1 ? { ...outcome, test_case_id: trialKey(outcome.test_case_id, trial) } : outcome,
  );
export type CaseOutcome = z.infer<typeof CaseOutcomeSchema>;

/** The id of a scorecard's change-feed document (and of its outcome row); `testCaseId` is the trial key. */
export function outcomeId(runId: string, testCaseId: string): string {
  return `${runId}|${testCaseId}`;
}

/**
 * Projects a scorecard onto its outcome (no copies of large fields: diffs, calls, answers stay behind). The outcome
 * is keyed by the card's trial key (lib/domain/trial.ts): statistics count each trial as one scored case.
 */
export function caseOutcomeOf(card: Scorecard): CaseOutcome {
  const outcome: CaseOutcome = {
    run_id: card.run_id,
    test_case_id: scorecardKeyOf(card),
    attempt_number: card.attempt_number,
    overall_passed: card.overall_passed,
    overall_score: card.overall_score,
    stages: {
      syntax: { status: card.stages.syntax.status },
      logic: { status: card.stages.logic.status },
      execution: { status: card.stages.execution.status },
      semantics: { status: card.stages.semantics.status },
    },
    latency_ms: card.latency_ms,
    input_tokens: card.input_tokens,
    output_tokens: card.output_tokens,
    estimated_cost_usd: card.estimated_cost_usd,
    category: card.category,
    tags: card.tags,
    complexity_level: card.complexity_level,
    client_version: card.client_version,
  };
  if (card.failing_stage) outcome.failing_stage = card.failing_stage;
  if (card.error_code) outcome.error_code = card.error_code;
  const e = card.efficiency;
  if (e)
    outcome.efficiency = {
      calls_made: e.calls_made,
      calls_needed: e.calls_needed,
      redundant_calls: e.redundant_calls,
      model_turns: e.model_turns,
      tokens: e.tokens,
      score: e.score,
    };
  return outcome;
}
