import type { Database } from '@azure/cosmos';
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
  type Organization,
  OrganizationSchema,
  type JudgeCalibration,
  JudgeCalibrationSchema,
  type PairwiseVerdict,
  PairwiseVerdictSchema,
  type StoredToolCatalog,
  StoredToolCatalogSchema,
  type TargetSystem,
  TargetSystemSchema,
  type TestSuite,
  TestSuiteSchema,
} from '../../domain/index.js';
import type { Clock, Stores } from '../../ports/index.js';
import { ENTITY_KINDS } from '../shared/index.js';
import { CosmosAlertStore } from './cosmosAlertStore.js';
import { CosmosAuditStore } from './cosmosAuditStore.js';
import { CosmosAnnotationStore } from './cosmosAnnotationStore.js';
import { COSMOS_CONTAINERS } from './cosmosContainers.js';
import { CosmosEntityStore } from './cosmosEntityStore.js';
import { CosmosRunStatsStore } from './cosmosRunStatsStore.js';
import { CosmosRunStore } from './cosmosRunStore.js';
import { CosmosScorecardStore } from './cosmosScorecardStore.js';
import { CosmosTestCaseStore } from './cosmosTestCaseStore.js';
import { CosmosSuiteVersionStore } from './cosmosSuiteVersionStore.js';
import { CosmosFeedbackStore } from './cosmosFeedbackStore.js';

export interface CosmosStoresOptions {
  /** per-item ttl of scorecards and counted outcomes, in seconds (EVALP_SCORECARD_TTL_SECONDS) */
  scorecardTtlSeconds?: number;
  clock?: Clock;
}

/**
 * Every store of the Azure backend on one Cosmos DB database (containers as COSMOS_CONTAINERS declares them;
 * nothing is created here). No I/O until a store is used.
 */
export function createCosmosStores(database: Database, options: CosmosStoresOptions = {}): Stores {
  const container = (key: keyof typeof COSMOS_CONTAINERS) => database.container(COSMOS_CONTAINERS[key].id);
  const ttl = options.scorecardTtlSeconds === undefined ? {} : { ttlSeconds: options.scorecardTtlSeconds };
  const scorecards = new CosmosScorecardStore(container('scorecards'), ttl);
  return {
    testCases: new CosmosTestCaseStore(container('testCases')),
    suites: new CosmosEntityStore<TestSuite>(container('entities'), ENTITY_KINDS.suites, TestSuiteSchema),
    catalogs: new CosmosEntityStore<StoredToolCatalog>(container('entities'), ENTITY_KINDS.catalogs, StoredToolCatalogSchema),
    targets: new CosmosEntityStore<TargetSystem>(container('entities'), ENTITY_KINDS.targets, TargetSystemSchema),
    clients: new CosmosEntityStore<Client>(container('entities'), ENTITY_KINDS.clients, ClientSchema),
    runs: new CosmosRunStore(container('runs'), container('runShards')),
    scorecards,
    runStats: new CosmosRunStatsStore(container('runStats'), scorecards, { ...ttl, ...(options.clock ? { clock: options.clock } : {}) }),
    alerts: new CosmosAlertStore(container('alerts')),
    audit: new CosmosAuditStore(container('audit')),
    annotations: new CosmosAnnotationStore(container('annotations')),
    suiteVersions: new CosmosSuiteVersionStore(container('suiteVersions')),
    calibrations: new CosmosEntityStore<JudgeCalibration>(container('entities'), ENTITY_KINDS.calibrations, JudgeCalibrationSchema),
    pairwiseVerdicts: new CosmosEntityStore<PairwiseVerdict>(container('entities'), ENTITY_KINDS.pairwiseVerdicts, PairwiseVerdictSchema),
    experiments: new CosmosEntityStore<Experiment>(container('entities'), ENTITY_KINDS.experiments, ExperimentSchema),
    feedback: new CosmosFeedbackStore(container('feedback')),
    benchmarks: new CosmosEntityStore<Benchmark>(container('entities'), ENTITY_KINDS.benchmarks, BenchmarkSchema),
    benchmarkRuns: new CosmosEntityStore<BenchmarkRun>(container('entities'), ENTITY_KINDS.benchmarkRuns, BenchmarkRunSchema),
    cleanedJobs: new CosmosEntityStore<CleanedJob>(container('entities'), ENTITY_KINDS.cleanedJobs, CleanedJobSchema),
    organizations: new CosmosEntityStore<Organization>(container('entities'), ENTITY_KINDS.organizations, OrganizationSchema),
  };
}
