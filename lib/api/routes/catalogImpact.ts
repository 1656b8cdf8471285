import { z } from 'zod';
import { CatalogImpactReportSchema, CatalogMigrationOperationSchema, CatalogMigrationResultSchema } from '../../domain/index.js';
import { catalogImpact, migrateCatalogCases } from '../../runs/index.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const Params = z.object({ name: z.string().min(1), version: z.string().min(1) });

/** `suite_id=a,b` (comma-separated) or repeated */
const SuiteIdsQuery = z
  .object({
    suite_id: z.string().min(1).optional().describe('comma-separated suite ids (default: every suite using the catalog)'),
  })
  .strict();

const suiteIdsOf = (value: string | undefined): string[] | undefined =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

export const catalogImpactRoute = defineRoute({
  name: 'tool-catalogs-impact',
  method: 'GET',
  path: 'v1/tool-catalogs/{name}/versions/{version}/impact',
  role: 'reader',
  tag: 'tool-catalogs',
  summary:
    'Which cases of which suites no longer validate against this catalog version, with the reason per call and parameter (renamed or removed parameter, new required parameter, removed or renamed tool, type change) and suggested migration steps',
  params: Params,
  query: SuiteIdsQuery,
  responses: { 200: 'the impact report (only broken cases listed)', 404: 'no such catalog version or suite' },
  response: CatalogImpactReportSchema,
  handler: async ({ services, params, query }) => {
    const suiteIds = suiteIdsOf(query.suite_id);
    return { status: 200, body: await catalogImpact(params.name, params.version, services.stores, suiteIds ? { suiteIds } : {}) };
  },
});

export const MigrateCatalogRequestSchema = z
  .object({
    operations: z.array(CatalogMigrationOperationSchema).max(1_000).default([]),
    /** the suites to migrate (default: every suite using the catalog) */
    suite_ids: z.array(z.string().min(1)).min(1).optional(),
    /** true (default): show the changes, write nothing */
    dry_run: z.boolean().default(true),
  })
  .strict();

export const migrateCatalogRoute = defineRoute({
  name: 'tool-catalogs-migrate',
  method: 'POST',
  path: 'v1/tool-catalogs/{name}/versions/{version}/migrate',
  role: 'test-admin',
  tag: 'tool-catalogs',
  summary:
    "Migrate the cases of the suites using the catalog to this version (rename_argument, add_default, rename_tool; each case's catalog reference moves too). dry_run (default true) shows the changes; otherwise the suite is published before (when it has unpublished changes) and after, changed cases are written, and the suite's pin moves to this version when no case still breaks. Idempotent",
  params: Params,
  body: MigrateCatalogRequestSchema,
  responses: {
    200: 'the changes per suite and case, what still breaks, pins and published versions',
    404: 'no such catalog version or suite',
  },
  response: CatalogMigrationResultSchema,
  handler: async ({ services, params, body, principal }) => ({
    status: 200,
    body: await migrateCatalogCases(
      params.name,
      params.version,
      {
        operations: body.operations,
        dryRun: body.dry_run,
        author: principal?.name ?? 'anonymous',
        ...(body.suite_ids ? { suiteIds: body.suite_ids } : {}),
      },
      services,
    ),
  }),
});

/** Impact of a new catalog version on the gold set, and the case migration to it. */
export const CATALOG_IMPACT_ROUTES: readonly RouteDefinition[] = [catalogImpactRoute, migrateCatalogRoute];
