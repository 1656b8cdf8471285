import type { RouteDefinition } from '../route.js';

/** Client routes (being built). */
export const CLIENT_ROUTES: readonly RouteDefinition[] = [];
