import { z } from 'zod';
import { OrganizationFieldSchema } from './organization.js';
import { JudgeCriteriaSchema } from './judgeCriteria.js';
import { CatalogPinsSchema } from './catalogPins.js';
import { EntityOwnerSchema } from './entityOwner.js';
import { AdhocSuiteSchema } from './adhocSuite.js';
import { CaseQueryError, parseCaseQuery } from './caseQuery.js';

/** A dynamic suite's filter; resolved against the test-case store when a run starts. */
export const TestCaseFilterSchema = z
  .object({
    tags: z.array(z.string().min(1)).optional(),
    /** `any` (default): a case with at least one of the tags; `all`: every tag */
    tags_mode: z.enum(['any', 'all']).optional(),
    complexity_min: z.number().int().min(1).max(5).optional(),
    complexity_max: z.number().int().min(1).max(5).optional(),
    api_version: z.string().optional(),
    category: z.string().optional(),
    /** full-text query over the question, expected answer and tags */
    q: z.string().min(1).optional(),
  })
  .strict()
  .refine((f) => f.complexity_min === undefined || f.complexity_max === undefined || f.complexity_min <= f.complexity_max, {
    message: 'complexity_min must be <= complexity_max',
    path: ['complexity_min'],
  });
export type TestCaseFilter = z.infer<typeof TestCaseFilterSchema>;

export const TestSuiteSchema = z
  .object({
    id: z.string().min(1),
    /** the owning organization, stamped by the organization-scoped stores (absent: `default`) */
    organization: OrganizationFieldSchema,
    name: z.string().min(1),
    description: z.string().optional(),
    /** `static`: an explicit list of case ids; `dynamic`: a filter resolved at run start */
    kind: z.enum(['static', 'dynamic']),
    test_case_ids: z.array(z.string().min(1)).default([]),
    filter: TestCaseFilterSchema.optional(),
    /** a dynamic suite's query (lib/domain/caseQuery.ts grammar), resolved with its filter when a run starts */
    query: z.string().min(1).max(4000).optional(),
    /** set on suites the platform made for one submission (batch file, query): hidden from ordinary lists */
    adhoc: AdhocSuiteSchema.optional(),
    /** rubric criteria for runs of this suite that set none in their config (semantics.criteria) */
    judge_criteria: JudgeCriteriaSchema.optional(),
    /** tool-catalog versions the suite keeps running on until migrated (`{"retail-api": "1"}`); runs copy them */
    tool_catalogs: CatalogPinsSchema.optional(),
    /** set on a suite that exists for another resource (an /api/evaluate job): hidden from ordinary lists, deleted with it */
    owner: EntityOwnerSchema.optional(),
    created_at: z.iso.datetime({ offset: true }),
    updated_at: z.iso.datetime({ offset: true }),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.kind === 'dynamic' && !s.filter && !s.query)
      ctx.addIssue({ code: 'custom', path: ['filter'], message: 'a dynamic suite needs a filter or a query' });
    if (s.kind === 'static' && (s.filter || s.query))
      ctx.addIssue({
        code: 'custom',
        path: [s.filter ? 'filter' : 'query'],
        message: 'a static suite lists test_case_ids; use kind "dynamic" for a filter or a query',
      });
    if (s.query) {
      try {
        parseCaseQuery(s.query);
      } catch (err) {
        if (!(err instanceof CaseQueryError)) throw err;
        ctx.addIssue({ code: 'custom', path: ['query'], message: `${err.reason} at position ${err.position + 1}` });
      }
    }
  });
export type TestSuite = z.infer<typeof TestSuiteSchema>;
