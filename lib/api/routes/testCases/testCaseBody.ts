import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { TestCaseSchema, isJsonObject, type TestCase } from '../../../domain/index.js';
import { NotFoundError, type Services, type WithEtag } from '../../../ports/index.js';
import type { ApiResult } from '../../route.js';

/**
 * Stands for "no id in the body" until the route knows it (the path's id, or a new UUID). It passes the id rule
 * (IdSchema) so the rest of the body is validated as usual; Unicode noncharacters never come from JSON clients by accident.
 */
const UNSET_ID = '\uFFFF\uFFFEunset';

/** A test case as a request body: the TestCase schema, with `id` optional (create: a UUID; PUT: the path's id). */
export const TestCaseBodySchema = z.preprocess(
  (value) => (isJsonObject(value) && (value.id === undefined || value.id === null) ? { ...value, id: UNSET_ID } : value),
  TestCaseSchema,
);

/** Whether the body left `id` out. */
export function idWasGiven(testCase: TestCase): boolean {
  return testCase.id !== UNSET_ID;
}

/** The case with its id settled and its timestamps set: `created_at` kept (or now), `updated_at` now. */
export function stamped(testCase: TestCase, id: string, now: string, createdAt?: string): TestCase {
  const metadata = { ...testCase.metadata, created_at: createdAt ?? testCase.metadata.created_at ?? now, updated_at: now };
  return { ...testCase, id, metadata };
}

export function newCaseId(testCase: TestCase): string {
  return idWasGiven(testCase) ? testCase.id : randomUUID();
}

/** The API path of a case under /api (ids are kept from sources, so they are percent-encoded). */
export function casePath(id: string): string {
  return `v1/test-cases/${encodeURIComponent(id)}`;
}

/** A stored case as an answer: `_etag` in the ETag header, never in the body. */
export function caseResult(status: number, stored: WithEtag<TestCase>, headers: Record<string, string> = {}): ApiResult {
  const { _etag, ...testCase } = stored;
  return { status, headers: { etag: _etag, ...headers }, body: testCase };
}

export async function loadCase(services: Services, id: string): Promise<WithEtag<TestCase>> {
  const current = await services.stores.testCases.getTestCase(id);
  if (!current) throw new NotFoundError('test case', id);
  return current;
}
