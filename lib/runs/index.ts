// The public surface of lib/runs: other folders import it from here.
export { CreateRunRequestSchema, UnknownReferenceError, createRun } from './createRun.js';
export { dueScheduledRuns, scheduleProblem } from './schedules.js';
export {
  ACTIVITY_ENQUEUE_SHARD,
  ACTIVITY_FINALIZE_RUN,
  ACTIVITY_PLAN_RUN,
  EVENT_CANCEL,
  EVENT_RUN_COMPLETED,
  ORCHESTRATOR_RUN_EVALUATION,
} from './activityNames.js';
export { runOrchestrationInput } from './runInput.js';
export { enqueueShard } from './enqueueShard.js';
export { finalizeRun } from './finalizeRun.js';
export type { FinalizedRun, RunOutcome } from './finalizeRun.js';
export { planRun } from './planRun.js';
export type { RunPlan } from './planRun.js';
export { processCaseMessages } from './caseWorker.js';
export { QUEUES, STAGE_QUEUE_NAMES } from './queues.js';
export { withRunPriority } from './stagePriority.js';
export type { QueueStage } from './queues.js';
export { RunContextCache } from './runContext.js';
export { aggregateOutcomes } from './aggregateOutcomes.js';
export { RunHeadlineSchema, runHeadlineOf } from './trends/runHeadline.js';
export { TrendGroupBySchema, TrendSeriesSchema, runTrends } from './trends/runTrends.js';
export type { RunWithStats } from './trends/runTrends.js';
export type { RunHeadline } from './trends/runHeadline.js';
export { RunConfigurationError, checkRunConfig } from './checkRunConfig.js';
export { runHealth } from './runHealth.js';
export { DEFAULT_STALL_AFTER_MINUTES, checkStalledRuns } from './watchdog.js';
export { diffPublishedVersions, publishSuiteVersion } from './publishSuiteVersion.js';
export { drawSample, sampleSizeOf } from './sampleCases.js';
export { concludeExperiment, createExperiment, experimentResultsOf, startExperiment, type ExperimentDeps } from './experiments.js';
