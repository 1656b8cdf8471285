import { describe, expect, it } from 'vitest';
import { ToolDefinitionSchema, type JsonValue } from '../../domain/index.js';
import { buildHttpRequest, compileHttpRoute, type BuildRequestResult } from './httpRoute.js';
import { TEST_CATALOG } from '../../evaluation/execution/__fixtures__/catalog.js';
import { ExecutionConfigurationError } from '../../ports/executionErrors.js';

const BASE = 'http://api.test/v1/';

function build(toolName: string, args: Record<string, JsonValue>): BuildRequestResult {
  const tool = TEST_CATALOG.tools.find((t) => t.name === toolName);
  if (!tool) throw new Error(`no tool ${toolName}`);
  return buildHttpRequest(BASE, compileHttpRoute(tool), args);
}

describe('buildHttpRequest', () => {
  it.each<[string, string, Record<string, JsonValue>, BuildRequestResult]>([
    [
      'GET: path param encoded, the rest to the query (sorted), arrays repeated, null dropped',
      'get_weather',
      { city: 'São Paulo/SP', units: 'metric', days: [1, 2], extra: null, opts: { a: 1 } },
      {
        ok: true,
        request: {
          method: 'GET',
          url: 'http://api.test/v1/weather/S%C3%A3o%20Paulo%2FSP?days=1&days=2&opts=%7B%22a%22%3A1%7D&units=metric',
        },
      },
    ],
    [
      'GET with an explicit query list: unlisted arguments are not sent',
      'search_flights',
      { to: 'JFK', from: 'LHR', dates: ['2024-01-01', '2024-01-05'], cabin: 'economy' },
      { ok: true, request: { method: 'GET', url: 'http://api.test/v1/flights?from=LHR&to=JFK&dates=2024-01-01&dates=2024-01-05' } },
    ],
    [
      'POST: every argument to the JSON body',
      'create_order',
      { item: 'book', qty: 2, gift: false },
      { ok: true, request: { method: 'POST', url: 'http://api.test/v1/orders', body: '{"gift":false,"item":"book","qty":2}' } },
    ],
    [
      'PATCH: path param, listed query, the rest to the body',
      'update_user',
      { id: 42, dry_run: true, name: 'Ada' },
      { ok: true, request: { method: 'PATCH', url: 'http://api.test/v1/users/42?dry_run=true', body: '{"name":"Ada"}' } },
    ],
    [
      'DELETE with an explicit body list: the rest to the query',
      'delete_item',
      { id: 'a b', reason: 'dup', force: true },
      { ok: true, request: { method: 'DELETE', url: 'http://api.test/v1/items/a%20b?force=true', body: '{"reason":"dup"}' } },
    ],
    [
      'PUT with no arguments still sends an empty JSON object',
      'ping',
      {},
      { ok: true, request: { method: 'PUT', url: 'http://api.test/v1/ping', body: '{}' } },
    ],
    [
      'a path parameter the call does not give is a failure, not a crash',
      'get_weather',
      { units: 'metric' },
      { ok: false, message: 'tool "get_weather" needs argument "city" for its path /weather/{city}, but the call does not give it' },
    ],
  ])('%s', (_, tool, args, expected) => {
    expect(build(tool, args)).toEqual(expected);
  });
});

describe('compileHttpRoute', () => {
  it.each([
    ['no mapping', { name: 'no_http' }, 'tool "no_http" has no "http" mapping in its catalog, so the http provider cannot call it'],
    [
      'GET with a body',
      { name: 'g', http: { method: 'GET', path: '/g', body: ['x'] } },
      'tool "g": a GET request cannot have a body, but http.body lists x',
    ],
    [
      'argument on both sides',
      { name: 'p', http: { method: 'POST', path: '/p', query: ['x', 'y'], body: ['y'] } },
      'tool "p": argument(s) y listed in both http.query and http.body',
    ],
  ])('throws a configuration error for %s', (_, tool, message) => {
    const compile = () => compileHttpRoute(ToolDefinitionSchema.parse(tool));
    expect(compile).toThrow(ExecutionConfigurationError);
    expect(compile).toThrow(message);
  });
});
