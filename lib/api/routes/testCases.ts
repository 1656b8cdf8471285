import type { RouteDefinition } from '../route.js';
import { createTestCaseRoute, deleteTestCaseRoute, getTestCaseRoute, replaceTestCaseRoute } from './testCases/crud.js';
import { duplicateTestCaseRoute } from './testCases/duplicate.js';
import { exportTestCasesRoute } from './testCases/export.js';
import { importTestCasesRoute } from './testCases/import.js';
import { listTestCasesRoute } from './testCases/list.js';
import { similarTestCasesRoute } from './testCases/similar.js';

/** Test-case routes (testCases/README.md): CRUD with ETags, list, import, streamed export, duplicate, similar. */
export const TEST_CASE_ROUTES: readonly RouteDefinition[] = [
  listTestCasesRoute,
  createTestCaseRoute,
  importTestCasesRoute,
  exportTestCasesRoute,
  similarTestCasesRoute,
  getTestCaseRoute,
  replaceTestCaseRoute,
  deleteTestCaseRoute,
  duplicateTestCaseRoute,
];
