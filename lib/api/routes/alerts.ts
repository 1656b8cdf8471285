import type { RouteDefinition } from '../route.js';

/** Regression alert routes (being built). */
export const ALERT_ROUTES: readonly RouteDefinition[] = [];
