import { app, type HttpRequest, type HttpResponseInit, type InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';
import { getServices } from '../../lib/app/index.js';
import { ROUTES, handleRequest, type RunOrchestrations } from '../../lib/api/index.js';
import { EVENT_CANCEL, ORCHESTRATOR_RUN_BENCHMARK, ORCHESTRATOR_RUN_EVALUATION, runOrchestrationInput } from '../../lib/runs/index.js';

function orchestrations(context: InvocationContext, request: HttpRequest): RunOrchestrations {
  const client = df.getClient(context);
  return {
    start: async (runId) => {
      // the run's trace continues the request's (the Functions host's trace context, or the caller's traceparent header)
      const parent = context.traceContext?.traceParent ?? request.headers.get('traceparent');
      await client.startNew(ORCHESTRATOR_RUN_EVALUATION, { instanceId: runId, input: runOrchestrationInput(runId, parent) });
    },
    cancel: async (runId) => {
      await client.raiseEvent(runId, EVENT_CANCEL, {});
    },
    startBenchmark: async (benchmarkRunId) => {
      await client.startNew(ORCHESTRATOR_RUN_BENCHMARK, { instanceId: benchmarkRunId, input: { benchmark_run_id: benchmarkRunId } });
    },
  };
}

/** A streamed ApiResult body as bytes (HttpResponseInit takes an AsyncIterable<Uint8Array>). */
async function* utf8Chunks(chunks: AsyncIterable<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

/**
 * The API's path prefix. host.json sets `extensions.http.routePrefix` to "" (so the dashboard can answer `/`), and
 * every API route carries the prefix itself: `/api/v1/runs` in Azure and on the embedded host alike.
 */
export const API_ROUTE_PREFIX = 'api';

/** One app.http per row of the route table (lib/api): routing, validation, roles and OpenAPI share one source. */
for (const route of ROUTES) {
  app.http(route.name, {
    route: `${API_ROUTE_PREFIX}/${route.path}`,
    methods: [route.method],
    authLevel: 'anonymous',
    extraInputs: [df.input.durableClient()],
    handler: async (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
      const services = await getServices();
      const result = await handleRequest(route, request, services, orchestrations(context, request), (msg) => context.error(msg));
      const headers = result.headers ? { headers: result.headers } : {};
      if (result.stream) return { status: result.status, ...headers, body: utf8Chunks(result.stream) };
      return { status: result.status, ...headers, ...(result.body !== undefined ? { jsonBody: result.body } : {}) };
    },
  });
}
