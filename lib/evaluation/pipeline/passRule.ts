import { STAGE_NAMES, type ErrorCode, type StageName, type StageResult, type StageWeights } from '../../domain/index.js';

export interface Verdict {
  overall_passed: boolean;
  overall_score: number;
  failing_stage?: StageName;
  error_code?: ErrorCode;
}

/**
 * The pass rule and the overall score, in one place.
 * - A case passes when every stage that ran (status passed/failed/error) passed. Skipped stages do not count;
 *   a stage that could not score (status `error`) blocks the pass: nothing unconfirmed is called a pass.
 * - The overall score is the weighted mean of the scores of the stages that produced one. A syntax failure
 *   scores 0 overall: nothing after the gate ran, so there is nothing to give partial credit for.
 * - The failing stage is the first stage in waterfall order that did not pass.
 */
export function decideVerdict(stages: Record<StageName, StageResult>, weights: StageWeights): Verdict {
  if (stages.syntax.status !== 'passed') {
    return withFailure({ overall_passed: false, overall_score: 0 }, stages.syntax);
  }
  let weighted = 0;
  let weightSum = 0;
  let firstFailure: StageResult | undefined;
  for (const name of STAGE_NAMES) {
    const stage = stages[name];
    if (stage.status === 'skipped') continue;
    if (stage.status !== 'passed' && !firstFailure) firstFailure = stage;
    if (stage.score !== null) {
      weighted += weights[name] * stage.score;
      weightSum += weights[name];
    }
  }
  const overall_score = weightSum > 0 ? clamp01(weighted / weightSum) : 0;
  const verdict: Verdict = { overall_passed: firstFailure === undefined, overall_score };
  return firstFailure ? withFailure(verdict, firstFailure) : verdict;
}

function withFailure(verdict: Verdict, stage: StageResult): Verdict {
  const failed: Verdict = { overall_passed: verdict.overall_passed, overall_score: verdict.overall_score, failing_stage: stage.stage };
  if (stage.error_code) failed.error_code = stage.error_code;
  return failed;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : Math.round(x * 1e6) / 1e6;
}
