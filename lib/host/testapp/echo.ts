import { app, type HttpRequest, type HttpResponseInit } from '@azure/functions';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Drives the HttpResponseInit mapping and the server's error paths from the query string (`mode`). */
app.http('echo', {
  route: 'echo/{*rest}',
  methods: ['GET', 'POST'],
  handler: async (request: HttpRequest): Promise<HttpResponseInit> => {
    const mode = request.query.get('mode') ?? 'json';
    switch (mode) {
      case 'text':
        return { status: 200, body: await request.text(), headers: { 'content-type': 'text/plain' } };
      case 'length':
        return { jsonBody: { bytes: (await request.arrayBuffer()).byteLength } };
      case 'empty':
        // No response at all (the host answers 204).
        return undefined as unknown as HttpResponseInit;
      case 'bad':
        // A handler that breaks the contract (the host must answer 500, not crash).
        return 'not a response object' as unknown as HttpResponseInit;
      case 'throw':
        throw new Error('secret internal detail');
      case 'slow':
        await pause(Number(request.query.get('ms') ?? '1000'));
        return { jsonBody: { slept: true } };
      default:
        return {
          status: Number(request.query.get('status') ?? '200'),
          jsonBody: { rest: request.params.rest ?? null, method: request.method, url: request.url },
        };
    }
  },
});
