export * from './importers/index.js';
export * from './offline/index.js';
export { importCases, type ImportCaseStores, type StoredImport } from './importCases.js';
export { lintCases } from './lint/lintCases.js';
export type { CaseWarning } from './lint/lintCases.js';
export { caseCatalogBreaks, migrateCase, sameCase } from './catalogs/index.js';
