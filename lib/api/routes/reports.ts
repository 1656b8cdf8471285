import { z } from 'zod';
import { runSloCompliance } from '../../alerts/index.js';
import {
  buildRunReport,
  HTML_CONTENT_SECURITY_POLICY,
  renderReport,
  REPORT_MEDIA,
  ReportFormatSchema,
  RunReportSchema,
  type ReportDeps,
} from '../../reports/index.js';
import { defineRoute, type RouteContext, type RouteDefinition } from '../route.js';

async function* inOrder(parts: readonly string[]): AsyncGenerator<string> {
  for (const part of parts) yield part;
}

function reportDeps(ctx: Pick<RouteContext<unknown, unknown, unknown>, 'services'>): ReportDeps {
  const { stores } = ctx.services;
  return {
    stores,
    clock: ctx.services.clock,
    sloCompliance: async (runId) => {
      const run = await stores.runs.getRun(runId);
      return run ? runSloCompliance(run, stores) : null;
    },
  };
}

/**
 * `GET /api/v1/runs/{id}/report`: the run's report as JSON (the view model), Markdown (sized for a PR comment),
 * a self-contained HTML page or JUnit XML; `compare=<base run id>` adds the comparison with that run.
 */
export const runReportRoute = defineRoute({
  name: 'reports-run',
  method: 'GET',
  path: 'v1/runs/{id}/report',
  role: 'reader',
  tag: 'reports',
  summary:
    'A report of a run: json, markdown (PR comment sized), self-contained html with charts, or junit xml; compare=<run id> adds the comparison with a base run',
  params: z.object({ id: z.string().min(1) }),
  query: z
    .object({
      format: ReportFormatSchema.default('json'),
      compare: z.string().min(1).optional(),
      max_failures: z.coerce.number().int().min(0).max(1000).default(100),
    })
    .strict(),
  responses: {
    200: 'the report (application/json, text/markdown, text/html or application/xml by format)',
    400: 'invalid format or parameter',
    404: 'no such run or base run',
    409: 'a run to compare has not finished',
  },
  response: RunReportSchema,
  responseMediaTypes: ['application/json', 'text/markdown', 'text/html', 'application/xml'],
  handler: async (ctx) => {
    const { format, compare, max_failures } = ctx.query;
    const options = { ...(compare ? { compareWith: compare } : {}), maxFailures: max_failures, maxFlipped: max_failures };
    const headers: Record<string, string> = {
      'content-type': REPORT_MEDIA[format].contentType,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    };
    if (format === 'json') return { status: 200, headers, body: await buildRunReport(ctx.params.id, reportDeps(ctx), options) };
    if (format === 'html') headers['content-security-policy'] = HTML_CONTENT_SECURITY_POLICY;
    // rendered before the response starts, so a missing run is still a 404 problem, never a broken stream
    const parts = await renderReport(format, ctx.params.id, reportDeps(ctx), options);
    return { status: 200, headers, stream: inOrder(parts) };
  },
});

/** Report routes. */
export const REPORT_ROUTES: readonly RouteDefinition[] = [runReportRoute];
