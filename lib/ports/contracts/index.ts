export { entityStoreContract, type EntityStoreContractOptions } from './entityStore.contract.js';
export { testCaseStoreContract, FILTER_CASES } from './testCaseStore.contract.js';
export { runStoreContract } from './runStore.contract.js';
export { scorecardStoreContract } from './scorecardStore.contract.js';
export * from './fixtures.js';
