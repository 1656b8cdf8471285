import type { RouteDefinition } from '../route.js';

/** Tool-catalog routes (being built). */
export const TOOL_CATALOG_ROUTES: readonly RouteDefinition[] = [];
