import type { RouteDefinition } from '../route.js';

/** Evaluation-as-a-service compatibility routes (being built). */
export const EVALUATE_COMPAT_ROUTES: readonly RouteDefinition[] = [];
