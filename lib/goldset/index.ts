export * from './importers/index.js';
export * from './offline/index.js';
export { importCases, type ImportCaseStores, type StoredImport } from './importCases.js';
