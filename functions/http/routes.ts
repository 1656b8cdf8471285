import { app, type HttpRequest, type HttpResponseInit, type InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';
import { getServices } from '../../lib/app/services.js';
import { ROUTES, handleRequest, type RunOrchestrations } from '../../lib/api/index.js';
import { EVENT_CANCEL, ORCHESTRATOR_RUN_EVALUATION } from '../../lib/runs/activityNames.js';

function orchestrations(context: InvocationContext): RunOrchestrations {
  const client = df.getClient(context);
  return {
    start: async (runId) => {
      await client.startNew(ORCHESTRATOR_RUN_EVALUATION, { instanceId: runId, input: { run_id: runId } });
    },
    cancel: async (runId) => {
      await client.raiseEvent(runId, EVENT_CANCEL, {});
    },
  };
}

/** One app.http per row of the route table (lib/api): routing, validation, roles and OpenAPI share one source. */
for (const route of ROUTES) {
  app.http(route.name, {
    route: route.path,
    methods: [route.method],
    authLevel: 'anonymous',
    extraInputs: [df.input.durableClient()],
    handler: async (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
      const services = await getServices();
      const result = await handleRequest(route, request, services, orchestrations(context), (msg) => context.error(msg));
      return { status: result.status, ...(result.headers ? { headers: result.headers } : {}), ...(result.body !== undefined ? { jsonBody: result.body } : {}) };
    },
  });
}
