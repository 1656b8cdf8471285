import { z } from 'zod';
import { defineRoute } from '../route.js';

export const healthRoute = defineRoute({
  name: 'health',
  method: 'GET',
  path: 'health',
  role: 'anonymous',
  tag: 'platform',
  summary: 'Liveness: the platform answers and its store is reachable; with the platform version',
  query: z.object({}).passthrough(),
  responses: { 200: 'healthy' },
  handler: async ({ services }) => {
    await services.stores.runs.listRuns({}, { limit: 1 });
    return { status: 200, body: { status: 'ok', version: services.version ?? 'unknown', time: services.clock.now().toISOString() } };
  },
});
