import type { RouteDefinition } from '../route.js';

/** Test-case routes: CRUD, import, export, duplicate, similar (being built). */
export const TEST_CASE_ROUTES: readonly RouteDefinition[] = [];
