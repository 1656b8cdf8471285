import type { RouteDefinition } from '../route.js';

/** Test-suite routes (being built). */
export const SUITE_ROUTES: readonly RouteDefinition[] = [];
