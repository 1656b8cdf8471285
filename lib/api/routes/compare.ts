import type { RouteDefinition } from '../route.js';

/** Run comparison routes (being built). */
export const COMPARE_ROUTES: readonly RouteDefinition[] = [];
