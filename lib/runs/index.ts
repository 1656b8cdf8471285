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
export {
  benchmarkRunStatusOf,
  benchmarkTaskRunId,
  createBenchmark,
  finalizeBenchmarkRun,
  planBenchmarkRun,
  settleBenchmarkTask,
  skipBenchmarkTasks,
  startBenchmarkRun,
  startBenchmarkTask,
  type BenchmarkDeps,
  type BenchmarkTaskOutcome,
} from './benchmarks.js';
export { nextBenchmarkStep, type BenchmarkScheduleState, type BenchmarkStep, type FinishedTask } from './benchmarkSchedule.js';
export {
  ACTIVITY_FINALIZE_BENCHMARK_RUN,
  ACTIVITY_PLAN_BENCHMARK_RUN,
  ACTIVITY_SETTLE_BENCHMARK_TASK,
  ACTIVITY_SKIP_BENCHMARK_TASKS,
  ACTIVITY_START_BENCHMARK_TASK,
  ORCHESTRATOR_RUN_BENCHMARK,
} from './benchmarkActivityNames.js';
export { scoredCaseOutcomesOf } from './runCaseOutcomes.js';
export { catalogImpact } from './catalogImpact.js';
export { migrateCatalogCases, type CatalogMigrationRequest } from './migrateCatalogCases.js';
export { dueTriggeredRuns, triggerOf, type TriggerCheckResult } from './triggers/index.js';
export {
  announceRunCompleted,
  isAnnouncedStatus,
  RUN_COMPLETED_QUEUE,
  RunCompletedMessageSchema,
  type RunCompletedMessage,
} from './runCompletedEvents.js';
export {
  applyRetention,
  retentionDaysOf,
  retentionNote,
  type RetentionOptions,
  type RetentionPolicy,
  type RetentionReport,
} from './retention.js';
export { MAX_BATCH_CASES, createBatchSuite, ensureQuerySuite } from './adhocSuites.js';
export { liveSuiteCaseIds } from './suiteCases.js';
