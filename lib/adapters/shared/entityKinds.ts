/** Entity kinds in `st_entities` (also the entity names in store errors). */
export const ENTITY_KINDS = {
  suites: 'suite',
  catalogs: 'tool_catalog',
  targets: 'target',
  clients: 'client',
  calibrations: 'judge_calibration',
  pairwiseVerdicts: 'pairwise_verdict',
  experiments: 'experiment',
  benchmarks: 'benchmark',
  benchmarkRuns: 'benchmark_run',
  cleanedJobs: 'cleaned_job',
  organizations: 'organization',
} as const;
