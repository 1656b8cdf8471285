export { compareRuns, runLabel, type CompareRunsDeps, type CompareRunsOptions } from './compareRuns.js';
export { pairRuns, NO_CATEGORY, type PairedRuns } from './pairRuns.js';
export { summarizeRun } from './summarizeRun.js';
export { RunCases, loadRunCases, STAGE_CODE } from './runCases.js';
export { passRateDelta, countPair, emptyCounts, rateOf, type Counts } from './passRateDelta.js';
export { groupDeltas } from './groupDeltas.js';
export { verdictOf, formatP, formatPoints } from './significanceText.js';
export { flippedCases } from './flippedCases.js';
export { runOutcomes, type RunCaseOutcome } from './runOutcomes.js';
