import { ToolCatalogSchema, type ToolCatalog } from '../../../domain/index.js';

/** A catalog covering every http mapping shape the providers handle. */
export const TEST_CATALOG: ToolCatalog = ToolCatalogSchema.parse({
  name: 'test-api',
  tool_schema_version: '1',
  tools: [
    { name: 'get_weather', http: { method: 'GET', path: '/weather/{city}' } },
    { name: 'search_flights', http: { method: 'GET', path: 'flights', query: ['from', 'to', 'dates'] } },
    { name: 'create_order', http: { method: 'POST', path: '/orders' } },
    { name: 'update_user', http: { method: 'PATCH', path: '/users/{id}', query: ['dry_run'] } },
    { name: 'delete_item', http: { method: 'DELETE', path: '/items/{id}', body: ['reason'] } },
    { name: 'ping', http: { method: 'PUT', path: '/ping' } },
    { name: 'no_http' },
  ],
});
