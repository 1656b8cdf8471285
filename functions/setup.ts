/**
 * App-wide @azure/functions options; functions/index.ts imports this first, before any registration.
 * `enableHttpStream`: Azure streams HTTP request and response bodies instead of buffering them in the worker, so
 * `GET /api/v1/test-cases/export` and the report route (ApiResult.stream) send a 400,000-case body as it is
 * produced. The embedded host (lib/host) records the option and keeps its own request/response mapping.
 */
import { app } from '@azure/functions';

app.setup({ enableHttpStream: true });
