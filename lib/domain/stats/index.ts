export { CaseOutcomeSchema, caseOutcomeOf, outcomeId, type CaseOutcome } from './caseOutcome.js';
export { ENCODED_ATTEMPT_PATH, decodeOutcome, encodeOutcome } from './outcomeCodec.js';
export {
  NO_CATEGORY,
  RunStatsStateSchema,
  emptyRunStatsState,
  parseRunStatsState,
  type Counts,
  type RunStatsState,
  type StageCounts,
} from './runStatsState.js';
export { RunStatsAccumulator, toFixedPoint } from './runStatsAccumulator.js';
export { applyOutcome, foldDeliveries, recomputeFrom, replacesCounted, replacesCountedText } from './fold.js';
export { toRunStats } from './toRunStats.js';
export { LogHistogram, RELATIVE_ACCURACY, bucketIndex, bucketValue, type LogHistogramState } from './logHistogram.js';
export { latencyHistogramOf, latencyPercentile } from './latencyPercentile.js';
