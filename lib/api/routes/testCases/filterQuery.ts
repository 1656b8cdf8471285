import { z } from 'zod';
import { TestCaseFilterSchema, type TestCaseFilter } from '../../../domain/index.js';

/**
 * The test-case filter as query parameters (list and export): `tags` comma-separated (`tags=smoke,refunds`),
 * `tags_mode` any|all, `complexity_min`/`complexity_max` 1-5, `api_version`, `category`, `q` (full text).
 */
const FILTER_QUERY_SHAPE = {
  tags: z
    .string()
    .optional()
    .describe('comma-separated tags, e.g. smoke,refunds (a case with any of them, or every one with tags_mode=all)'),
  tags_mode: z.enum(['any', 'all']).optional().describe('any (default) or all'),
  complexity_min: z.coerce.number().optional().describe('1-5, inclusive'),
  complexity_max: z.coerce.number().optional().describe('1-5, inclusive'),
  api_version: z.string().min(1).optional(),
  category: z.string().min(1).optional(),
  q: z.string().optional().describe('full text over the question, expected answer and tags; words are ANDed, the last one is a prefix'),
};

type FilterQuery = { [K in keyof typeof FILTER_QUERY_SHAPE]: z.infer<(typeof FILTER_QUERY_SHAPE)[K]> };

/**
 * A strict query schema of the filter parameters plus `extra` ones, whose output is `{ filter, ...extra }`. The filter
 * is validated by the domain's TestCaseFilterSchema, so an error names the parameter (`query.complexity_min`).
 */
export function filterQuery<S extends z.ZodRawShape>(extra: S) {
  return z
    .object({ ...FILTER_QUERY_SHAPE, ...extra })
    .strict()
    .transform((query, ctx) => {
      const { tags, tags_mode, complexity_min, complexity_max, api_version, category, q, ...rest } = query as FilterQuery &
        Record<string, unknown>;
      const raw: Record<string, unknown> = { tags_mode, complexity_min, complexity_max, api_version, category };
      const tagList = (tags ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '');
      if (tagList.length > 0) raw.tags = tagList;
      if (q !== undefined && q.trim() !== '') raw.q = q;
      for (const key of Object.keys(raw)) if (raw[key] === undefined) delete raw[key];
      const parsed = TestCaseFilterSchema.safeParse(raw);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
        return z.NEVER;
      }
      return { ...(rest as z.infer<z.ZodObject<S>>), filter: parsed.data as TestCaseFilter };
    });
}
