import type { RouteDefinition } from './route.js';
import { healthRoute } from './routes/health.js';
import {
  cancelRunRoute,
  createRunRoute,
  getRunRoute,
  listFailuresRoute,
  listRunsRoute,
  listScorecardsRoute,
  retryFailuresRoute,
} from './routes/runs.js';
import { TEST_CASE_ROUTES } from './routes/testCases.js';
import { SUITE_ROUTES } from './routes/suites.js';
import { TOOL_CATALOG_ROUTES } from './routes/toolCatalogs.js';
import { TARGET_SYSTEM_ROUTES } from './routes/targetSystems.js';
import { CLIENT_ROUTES } from './routes/clients.js';
import { KEY_ROUTES } from './routes/keys.js';
import { EVALUATE_COMPAT_ROUTES } from './routes/evaluateCompat.js';
import { COMPARE_ROUTES } from './routes/compare.js';
import { RUN_PAIR_ROUTES } from './routes/runPairs.js';
import { ALERT_ROUTES } from './routes/alerts.js';
import { REPORT_ROUTES } from './routes/reports.js';
import { ANALYTICS_ROUTES } from './routes/analyticsExport.js';
import { openApiRoutes } from './routes/openapi.js';
import { trendsRoute } from './routes/trends.js';
import { meRoute } from './routes/me.js';
import { DEAD_LETTER_ROUTES } from './routes/deadLetters.js';
import { ANNOTATION_ROUTES } from './routes/annotations.js';
import { EXPERIMENT_ROUTES } from './routes/experiments.js';
import { FEEDBACK_ROUTES } from './routes/feedback.js';
import { BENCHMARK_ROUTES } from './routes/benchmarks.js';
import { ORGANIZATION_ROUTES } from './routes/organizations.js';

/**
 * Every route of the management API, grouped by resource (one file per group in routes/). functions/http
 * registers one app.http per entry; the OpenAPI document is generated from the same list.
 */
export const ROUTES: readonly RouteDefinition[] = [
  healthRoute,
  ...openApiRoutes(() => ROUTES),
  meRoute,
  createRunRoute,
  listRunsRoute,
  getRunRoute,
  cancelRunRoute,
  listScorecardsRoute,
  listFailuresRoute,
  retryFailuresRoute,
  trendsRoute,
  ...TEST_CASE_ROUTES,
  ...SUITE_ROUTES,
  ...TOOL_CATALOG_ROUTES,
  ...TARGET_SYSTEM_ROUTES,
  ...CLIENT_ROUTES,
  ...KEY_ROUTES,
  ...EVALUATE_COMPAT_ROUTES,
  ...COMPARE_ROUTES,
  ...RUN_PAIR_ROUTES,
  ...ALERT_ROUTES,
  ...REPORT_ROUTES,
  ...ANALYTICS_ROUTES,
  ...DEAD_LETTER_ROUTES,
  ...ANNOTATION_ROUTES,
  ...EXPERIMENT_ROUTES,
  ...FEEDBACK_ROUTES,
  ...BENCHMARK_ROUTES,
  ...ORGANIZATION_ROUTES,
];
