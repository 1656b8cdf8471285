import { join } from 'node:path';
import { app, type HttpRequest, type HttpResponseInit } from '@azure/functions';
import { packageRoot } from '../../lib/app/index.js';
import { dashboardAsset, dashboardConfigFromEnv } from '../../lib/dashboard/index.js';

/** The built dashboard (Vite writes it there at `npm install`); beside dist/functions in Azure too. */
const WEB_ROOT = join(packageRoot(), 'dist', 'web');

/**
 * The web dashboard at `/`: host.json sets `routePrefix` to "" so this catch-all can answer the site root, and the
 * API functions carry `api/` in their own routes (http/routes.ts), so their URLs stay `/api/...` in both hosts.
 * The most specific route wins, so every API route is matched before this one.
 */
app.http('dashboard', {
  route: '{*path}',
  methods: ['GET', 'HEAD'],
  authLevel: 'anonymous',
  handler: async (request: HttpRequest): Promise<HttpResponseInit> => {
    const answer = await dashboardAsset(WEB_ROOT, request.params.path, dashboardConfigFromEnv(process.env));
    return { status: answer.status, headers: answer.headers, body: request.method === 'HEAD' ? undefined : answer.body };
  },
});
