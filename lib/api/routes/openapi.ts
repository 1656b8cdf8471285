import type { RouteDefinition } from '../route.js';

/** The OpenAPI document route (being built). */
export const OPENAPI_ROUTES: readonly RouteDefinition[] = [];
