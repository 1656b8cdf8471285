export type { EstimateInterval } from './interval.js';
export { DEFAULT_CONFIDENCE } from './interval.js';
export { createRandom, type Random } from './random.js';
export { binomialCdf, binomialPmf, normalCdf, normalQuantile, studentTCdf, studentTQuantile } from './distributions.js';
export { wilsonInterval } from './wilson.js';
export { mcnemarExact, type McNemarResult } from './mcnemar.js';
export { pairedProportionDifference, type PairedTable } from './pairedProportionDifference.js';
export { pairedBootstrapMeanDiff, DEFAULT_BOOTSTRAP_ITERATIONS, type BootstrapOptions } from './bootstrap.js';
export { summarize, RunningSummary, type SampleSummary } from './summary.js';
export { welchTTest, pairedTTest, type TTestResult } from './tTest.js';
export { meanInterval, totalInterval } from './meanInterval.js';
export { bayesianPassRateComparison, DEFAULT_POSTERIOR_SAMPLES, type BayesianPassRateComparison, type PassCount } from './bayesian.js';
export { holmAdjust } from './holm.js';
export { orderStatisticRanks, percentileInterval, quantileOfSorted } from './percentile.js';
export { minimumDetectableEffect, type MdeInput } from './mde.js';
export { passAtK, passHatK } from './passAtK.js';
export {
  krippendorffAlpha,
  MEASUREMENT_LEVELS,
  type AlphaOptions,
  type AlphaResult,
  type MeasurementLevel,
  type Rating,
} from './krippendorffAlpha.js';
export { fleissKappa, fleissTable, type FleissKappaResult } from './fleissKappa.js';
export { cohenKappa, kappaFromTable, type CohenKappaResult } from './cohenKappa.js';
export { consensusByItem, annotatorAgreementWithConsensus, type ItemConsensus, type AnnotatorAgreement } from './consensus.js';
export { agreementSummary, type AgreementSummary, type PairKappa } from './agreementSummary.js';
export { allocateSample, largestRemainder, sampleIndices } from './sampleAllocation.js';
export { stratifiedProportion, type StratifiedProportion, type StratumCount } from './stratifiedProportion.js';
export { sequentialMcNemar, type SequentialMcNemarResult } from './sequentialMcNemar.js';
export { minimumSampleSize, minimumPairedMeanSampleSize, type SampleSizeInput } from './sampleSize.js';
