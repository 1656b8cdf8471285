export { caseCatalogBreaks } from './caseCatalogImpact.js';
export { migrateCase, sameCase } from './migrateCase.js';
export { expectedCallsOf, mapExpectedCalls, type LocatedCall } from './caseCalls.js';
