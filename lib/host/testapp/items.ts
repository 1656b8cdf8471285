import { app, output, type HttpRequest, type HttpResponseInit } from '@azure/functions';
import { CONTAINERS } from './names.js';

const itemsOut = output.cosmosDB({ connection: 'COSMOS', databaseName: 'evalp', containerName: CONTAINERS.items });

/** Anonymous GET with a route template: echoes the route value and query, sets a header and a cookie. */
app.http('getItem', {
  route: 'items/{id}',
  methods: ['GET'],
  authLevel: 'anonymous',
  handler: (request: HttpRequest): HttpResponseInit => ({
    jsonBody: { id: request.params.id, tags: request.query.getAll('tag') },
    headers: { 'x-item-id': request.params.id ?? '' },
    cookies: [{ name: 'lastItem', value: request.params.id ?? '', httpOnly: true, path: '/' }],
  }),
});

/** Function-key PUT on an int-constrained route: stores the JSON body in the `items` container. */
app.http('putItem', {
  route: 'items/{id:int}',
  methods: ['PUT'],
  authLevel: 'function',
  extraOutputs: [itemsOut],
  handler: async (request, context): Promise<HttpResponseInit> => {
    const body = (await request.json()) as Record<string, unknown>;
    const doc = { ...body, id: request.params.id };
    context.extraOutputs.set(itemsOut, doc);
    return { status: 201, jsonBody: doc };
  },
});

/** Admin-key DELETE on an optional route value. */
app.http('purgeItems', {
  route: 'items/{id?}',
  methods: ['DELETE'],
  authLevel: 'admin',
  handler: (request) => ({ status: 200, jsonBody: { purged: request.params.id ?? 'all' } }),
});
