import { ClientSchema, JudgeCalibrationSchema, PairwiseVerdictSchema, type PairwiseVerdict, TargetSystemSchema, TestSuiteSchema, type Client, type JudgeCalibration, type TargetSystem, type TestSuite } from '../../domain/index.js';
import type { ChangeLog } from '../../host/changefeed/index.js';
import type { StoredToolCatalog, Stores } from '../../ports/stores.js';
import { EmbeddedAlertStore } from './alertStore.js';
import { EmbeddedAuditStore } from './auditStore.js';
import { EmbeddedAnnotationStore } from './annotationStore.js';
import { EmbeddedEntityStore } from './entityStore.js';
import { EmbeddedRunStore } from './runStore.js';
import { EmbeddedScorecardStore } from './scorecardStore.js';
import type { SqliteDatabase } from './sqlite.js';
import { StoredToolCatalogSchema } from './storedToolCatalog.js';
import { EmbeddedTestCaseStore } from './testCaseStore.js';

/** Entity kinds in `st_entities` (also the entity names in store errors). */
export const ENTITY_KINDS = { suites: 'suite', catalogs: 'tool_catalog', targets: 'target', clients: 'client', calibrations: 'judge_calibration', pairwiseVerdicts: 'pairwise_verdict' } as const;

/**
 * Every embedded store except run statistics, on the host's connection; scorecard writes go on `changeLog`
 * (container `scorecards`). Creates the tables it needs (idempotent); no other side effect.
 */
export function createEmbeddedStores(db: SqliteDatabase, changeLog: ChangeLog): Omit<Stores, 'runStats'> {
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
    calibrations: new EmbeddedEntityStore<JudgeCalibration>(db, ENTITY_KINDS.calibrations, JudgeCalibrationSchema),
    pairwiseVerdicts: new EmbeddedEntityStore<PairwiseVerdict>(db, ENTITY_KINDS.pairwiseVerdicts, PairwiseVerdictSchema),
  };
}
