import { z } from 'zod';
import { OrganizationFieldSchema } from './organization.js';
import { JudgeCriteriaSchema } from './judgeCriteria.js';

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
    /** rubric criteria for runs of this suite that set none in their config (semantics.criteria) */
    judge_criteria: JudgeCriteriaSchema.optional(),
    created_at: z.iso.datetime({ offset: true }),
    updated_at: z.iso.datetime({ offset: true }),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.kind === 'dynamic' && !s.filter) ctx.addIssue({ code: 'custom', path: ['filter'], message: 'a dynamic suite needs a filter' });
    if (s.kind === 'static' && s.filter)
      ctx.addIssue({ code: 'custom', path: ['filter'], message: 'a static suite lists test_case_ids; use kind "dynamic" for a filter' });
  });
export type TestSuite = z.infer<typeof TestSuiteSchema>;
