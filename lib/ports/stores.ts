import type {
  Benchmark,
  BenchmarkRun,
  CleanedJob,
  Client,
  Experiment,
  JudgeCalibration,
  Organization,
  PairwiseVerdict,
  StoredToolCatalog,
  TargetSystem,
  TestSuite,
} from '../domain/index.js';
import type { EntityStore } from './entityStore.js';
import type { TestCaseStore } from './testCaseStore.js';
import type { RunStore } from './runStore.js';
import type { ScorecardStore } from './scorecardStore.js';
import type { RunStatsStore } from './runStatsStore.js';
import type { AlertStore } from './alertStore.js';
import type { AuditStore } from './auditStore.js';
import type { AnnotationStore } from './annotationStore.js';
import type { SuiteVersionStore } from './suiteVersionStore.js';
import type { FeedbackStore } from './feedbackStore.js';

/** Every store the platform uses; one adapter family (embedded or azure) provides all of them. */
export interface Stores {
  testCases: TestCaseStore;
  suites: EntityStore<TestSuite>;
  catalogs: EntityStore<StoredToolCatalog>;
  targets: EntityStore<TargetSystem>;
  clients: EntityStore<Client>;
  runs: RunStore;
  scorecards: ScorecardStore;
  runStats: RunStatsStore;
  alerts: AlertStore;
  audit: AuditStore;
  annotations: AnnotationStore;
  /** published, immutable suite versions (case ids, content hashes, bodies) */
  suiteVersions: SuiteVersionStore;
  /** judge calibrations, id `<judge_model>~<rubric_id>` */
  calibrations: EntityStore<JudgeCalibration>;
  /** pairwise verdicts of run comparisons, id `<run_a>~<run_b>~<case>~<model>` */
  pairwiseVerdicts: EntityStore<PairwiseVerdict>;
  /** experiments (lib/experiments): settings, pinned version, variant runs, frozen conclusion */
  experiments: EntityStore<Experiment>;
  /** production feedback: logged interactions and the candidate cases waiting for review (lib/feedback) */
  feedback: FeedbackStore;
  /** benchmark definitions: tasks (suite version x target/client x config), dependencies, parallelism */
  benchmarks: EntityStore<Benchmark>;
  /** benchmark runs: the definition at start, per-task state, the leaderboard once finished */
  benchmarkRuns: EntityStore<BenchmarkRun>;
  /** what is left of cleaned-up /api/evaluate jobs (GET answers 410 Gone), id = the job id */
  cleanedJobs: EntityStore<CleanedJob>;
  /** organizations (lib/tenancy): the tenants that own everything above, with their budgets */
  organizations: EntityStore<Organization>;
}
