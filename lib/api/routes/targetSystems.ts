import type { RouteDefinition } from '../route.js';

/** Target-system routes (being built). */
export const TARGET_SYSTEM_ROUTES: readonly RouteDefinition[] = [];
