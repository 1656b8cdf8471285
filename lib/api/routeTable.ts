import type { RouteDefinition } from './route.js';
import { healthRoute } from './routes/health.js';
import { cancelRunRoute, createRunRoute, getRunRoute, listRunsRoute, listScorecardsRoute, retryFailuresRoute } from './routes/runs.js';

/** Every route of the management API. functions/http registers one app.http per entry. */
export const ROUTES: readonly RouteDefinition[] = [healthRoute, createRunRoute, listRunsRoute, getRunRoute, cancelRunRoute, listScorecardsRoute, retryFailuresRoute];
