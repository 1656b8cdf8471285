export { entityStoreContract, type EntityStoreContractOptions } from './entityStore.contract.js';
export { testCaseStoreContract, FILTER_CASES, SIMILAR_CASES } from './testCaseStore.contract.js';
export { runStoreContract } from './runStore.contract.js';
export { scorecardStoreContract } from './scorecardStore.contract.js';
export * from './fixtures.js';
export { alertStoreContract, sampleAlert, sampleNotification } from './alertStore.contract.js';
export { auditStoreContract, sampleAuditRecord } from './auditStore.contract.js';
export { deadLetterPortContract, type DeadLetterFixture, type SeedMessage, type ActiveMessage } from './deadLetters.contract.js';
export { annotationStoreContract, sampleAnnotationTask } from './annotationStore.contract.js';
