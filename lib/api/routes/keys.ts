import type { RouteDefinition } from '../route.js';

/** API key and audit routes (being built). */
export const KEY_ROUTES: readonly RouteDefinition[] = [];
