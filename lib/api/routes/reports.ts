import type { RouteDefinition } from '../route.js';

/** Report routes (being built). */
export const REPORT_ROUTES: readonly RouteDefinition[] = [];
