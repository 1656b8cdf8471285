import { z } from 'zod';

/**
 * A suite the platform made for one submission rather than one a person curates: `batch-file` (the cases of
 * `evalp submit --batch-file`, which are not in the gold set: they live only in the suite's published version) or
 * `query` (a dynamic suite from `POST /api/v1/runs {query}` / `evalp submit --query`). Ad-hoc suites are left out
 * of `GET /api/v1/test-suites` unless `include_adhoc=true`; a run links to its suite by `suite_id`.
 */
export const AdhocSuiteSchema = z
  .object({
    kind: z.enum(['batch-file', 'query']),
    /** the file name (batch-file) or the query text as printed canonically (query) */
    source: z.string().min(1),
    created_at: z.iso.datetime({ offset: true }),
  })
  .strict();
export type AdhocSuite = z.infer<typeof AdhocSuiteSchema>;
