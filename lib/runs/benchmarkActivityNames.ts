/** The benchmark orchestration and its activities (functions/durable/runBenchmark.ts), declared once. */
export const ORCHESTRATOR_RUN_BENCHMARK = 'runBenchmark';
export const ACTIVITY_PLAN_BENCHMARK_RUN = 'planBenchmarkRun';
export const ACTIVITY_START_BENCHMARK_TASK = 'startBenchmarkTask';
export const ACTIVITY_SETTLE_BENCHMARK_TASK = 'settleBenchmarkTask';
export const ACTIVITY_SKIP_BENCHMARK_TASKS = 'skipBenchmarkTasks';
export const ACTIVITY_FINALIZE_BENCHMARK_RUN = 'finalizeBenchmarkRun';
