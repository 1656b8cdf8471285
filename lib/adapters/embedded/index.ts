export { createEmbeddedStores, ENTITY_KINDS } from './createEmbeddedStores.js';
export { EmbeddedEntityStore } from './entityStore.js';
export { EmbeddedTestCaseStore, ID_PAGE_SIZE } from './testCaseStore.js';
export { EmbeddedRunStore } from './runStore.js';
export { EmbeddedScorecardStore, ITERATE_PAGE_SIZE, SCORECARD_CONTAINER } from './scorecardStore.js';
export { StoredToolCatalogSchema, toolCatalogId } from './storedToolCatalog.js';
export { toFtsQuery, MIN_PREFIX_LENGTH } from './ftsQuery.js';
export { pageWindow, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './pageWindow.js';
export type { SqliteDatabase } from './sqlite.js';
