import {
  type Benchmark,
  type BenchmarkRun,
  BenchmarkRunSchema,
  BenchmarkSchema,
  type CleanedJob,
  CleanedJobSchema,
  type Client,
  ClientSchema,
  type Experiment,
  ExperimentSchema,
  type JudgeCalibration,
  JudgeCalibrationSchema,
  type Organization,
  OrganizationSchema,
  type PairwiseVerdict,
  PairwiseVerdictSchema,
  type StoredToolCatalog,
  StoredToolCatalogSchema,
  type TargetSystem,
  TargetSystemSchema,
  type TestSuite,
  TestSuiteSchema,
} from '../../domain/index.js';
import { ENTITY_KINDS } from '../shared/index.js';
import type { ChangeLog } from '../../host/index.js';
import type { Stores } from '../../ports/index.js';
import { EmbeddedAlertStore } from './alertStore.js';
import { EmbeddedAuditStore } from './auditStore.js';
import { EmbeddedAnnotationStore } from './annotationStore.js';
import { EmbeddedEntityStore } from './entityStore.js';
import { EmbeddedRunStore } from './runStore.js';
import { EmbeddedScorecardStore } from './scorecardStore.js';
import type { SqliteDatabase } from './sqlite.js';
import { EmbeddedTestCaseStore } from './testCaseStore.js';
import { EmbeddedSuiteVersionStore } from './suiteVersionStore.js';
import { EmbeddedFeedbackStore } from './feedbackStore.js';

/**
 * Every embedded store except run statistics, on the host's connection; scorecard writes go on `changeLog`
 * (container `scorecards`). Creates the tables it needs (idempotent); no other side effect.
 */
export function createEmbeddedRecordStores(db: SqliteDatabase, changeLog: ChangeLog): Omit<Stores, 'runStats'> {
  return {
    testCases: new EmbeddedTestCaseStore(db),
    suites: new EmbeddedEntityStore<TestSuite>(db, ENTITY_KINDS.suites, TestSuiteSchema),
    catalogs: new EmbeddedEntityStore<StoredToolCatalog>(db, ENTITY_KINDS.catalogs, StoredToolCatalogSchema),
    targets: new EmbeddedEntityStore<TargetSystem>(db, ENTITY_KINDS.targets, TargetSystemSchema),
    clients: new EmbeddedEntityStore<Client>(db, ENTITY_KINDS.clients, ClientSchema),
    runs: new EmbeddedRunStore(db),
    scorecards: new EmbeddedScorecardStore(db, changeLog),
    alerts: new EmbeddedAlertStore(db),
    audit: new EmbeddedAuditStore(db),
    annotations: new EmbeddedAnnotationStore(db),
    suiteVersions: new EmbeddedSuiteVersionStore(db),
    calibrations: new EmbeddedEntityStore<JudgeCalibration>(db, ENTITY_KINDS.calibrations, JudgeCalibrationSchema),
    pairwiseVerdicts: new EmbeddedEntityStore<PairwiseVerdict>(db, ENTITY_KINDS.pairwiseVerdicts, PairwiseVerdictSchema),
    experiments: new EmbeddedEntityStore<Experiment>(db, ENTITY_KINDS.experiments, ExperimentSchema),
    feedback: new EmbeddedFeedbackStore(db),
    benchmarks: new EmbeddedEntityStore<Benchmark>(db, ENTITY_KINDS.benchmarks, BenchmarkSchema),
    benchmarkRuns: new EmbeddedEntityStore<BenchmarkRun>(db, ENTITY_KINDS.benchmarkRuns, BenchmarkRunSchema),
    cleanedJobs: new EmbeddedEntityStore<CleanedJob>(db, ENTITY_KINDS.cleanedJobs, CleanedJobSchema),
    organizations: new EmbeddedEntityStore<Organization>(db, ENTITY_KINDS.organizations, OrganizationSchema),
  };
}
