export * from './importers/index.js';
export * from './offline/index.js';
export { importCases, IMPORT_WRITE_BATCH, type ImportCaseStores, type StoredImport } from './importCases.js';
