/**
 * API fuzz test generated from the OpenAPI document (GET /api/openapi.json) against a real embedded platform: for
 * every operation, requests whose path parameters, query and body are drawn by fast-check from the operation's own
 * schemas (mostly valid, with junk and hostile strings mixed in at every level, odd content types, sometimes no or a
 * wrong key), then per body field a minimal valid body with that one field replaced by a hostile value (this is what
 * found the lone-surrogate id that was stored and then answered 500). Every answer must be below 500, and every 4xx must be application/problem+json. Bounded: a fixed
 * number of requests per operation and a time limit; the count is printed (`api fuzz: N requests`).
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { arbitraryOf, hostileString, type FuzzSchema } from './openapi/arbitraryOf.test-helpers.js';
import { createApiKey } from './apiKeys.js';
import { ROLES } from '../domain/roles.js';
import { startTestApi, type TestApi } from './routes/apiTestPlatform.test-helpers.js';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: FuzzSchema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: FuzzSchema }> };
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, FuzzSchema> };
}

const RUNS_PER_OPERATION = 16;
const TIME_LIMIT_MS = 40_000;

let api: TestApi;
let doc: Doc;

beforeAll(async () => {
  // the per-principal and failed-authentication limits are tested elsewhere; here they would only answer 429
  api = await startTestApi({
    EVALP_API_RATE_LIMIT_RPS: '0',
    EVALP_AUTH_FAILURES_PER_MINUTE: '1000000',
    EVALP_AUTH_FAILURES_BURST: '1000000',
  });
  doc = (await (await fetch(`${api.platform.url}/api/openapi.json`)).json()) as Doc;
}, 60_000);

afterAll(() => api?.stop());

/** Percent-encodes the UTF-8 bytes of a path segment (a lone surrogate becomes U+FFFD's bytes, as a client library would send). */
const segment = (value: unknown): string =>
  [...Buffer.from(String(value), 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** Values put into one field of an otherwise valid body: a lone surrogate, a control character, the wrong type. */
const FIELD_MUTATIONS: unknown[] = ['\ud800', 'a\u0000b', 12345];

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/jsonx',
  'application/json-patch+json',
  'text/plain',
  '',
];

it('no answer is a 5xx and every 4xx is problem+json, over every operation of the OpenAPI document', async () => {
  const resolve = (ref: string): FuzzSchema | undefined => doc.components?.schemas?.[ref.replace('#/components/schemas/', '')];
  // outbound URLs in bodies stay on this machine, on a port where nothing listens
  const options = { resolve, uri: fc.constantFrom('http://127.0.0.1:9/agent', 'http://127.0.0.1:9/v1?q=1', 'https://127.0.0.1:9/x') };
  const allRoles = (await createApiKey(api.platform.services.apiKeys, { name: 'fuzz', roles: [...ROLES] }, api.platform.services.clock))
    .key;
  const credential = fc.oneof(
    { arbitrary: fc.constant(allRoles), weight: 8 },
    { arbitrary: fc.constantFrom(null, 'evalp_not_a_key', api.keys.reader), weight: 2 },
  );
  const started = Date.now();
  let requests = 0;
  const failures: string[] = [];
  const statuses = new Map<number, number>();

  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const params = operation.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path');
      const queryParams = params.filter((p) => p.in === 'query');
      const content = operation.requestBody?.content ?? {};
      const jsonSchema = content['application/json']?.schema;
      const otherTypes = Object.keys(content).filter((t) => t !== 'application/json');
      const body: fc.Arbitrary<{ type: string; text: string } | undefined> = jsonSchema
        ? fc
            .tuple(arbitraryOf(jsonSchema, options), fc.constantFrom(...JSON_TYPES), fc.integer({ min: 0, max: 19 }))
            .map(([value, type, n]) => ({
              type: n < 15 ? 'application/json' : type,
              text: n === 19 ? '{"broken": ' : (JSON.stringify(value) ?? 'null'),
            }))
        : otherTypes.length > 0
          ? fc
              .tuple(
                fc.constantFrom(...otherTypes, 'application/jsonx'),
                fc.oneof(
                  hostileString,
                  fc.string(),
                  fc.constant('id,nl_query\nx,y\n'),
                  fc.constant('{"id":"f1","nl_query":"q","expected_tool_calls":[]}'),
                ),
              )
              .map(([type, text]) => ({ type, text }))
          : fc.constant(undefined);
      const request = fc.record({
        path: fc
          .tuple(...pathParams.map((p) => arbitraryOf(p.schema ?? { type: 'string' }, options)))
          .map((values) => pathParams.reduce((acc, p, i) => acc.replace(`{${p.name}}`, segment(values[i]) || 'x'), path)),
        query: fc
          .tuple(...queryParams.map((p) => fc.option(arbitraryOf(p.schema ?? { type: 'string' }, options), { nil: undefined, freq: 2 })))
          .map((values) => {
            const search = new URLSearchParams();
            queryParams.forEach(
              (p, i) =>
                values[i] !== undefined &&
                search.append(p.name, typeof values[i] === 'object' ? JSON.stringify(values[i]) : String(values[i])),
            );
            return search.toString();
          }),
        body,
        key: credential,
      });
      await fc
        .assert(
          fc.asyncProperty(request, async ({ path: url, query, body: sent, key }) => {
            requests++;
            const headers: Record<string, string> = {};
            if (key) headers.authorization = `Bearer ${key}`;
            if (sent?.type) headers['content-type'] = sent.type;
            const res = await fetch(`${api.platform.url}${url}${query ? `?${query}` : ''}`, {
              method: method.toUpperCase(),
              headers,
              ...(sent ? { body: sent.text } : {}),
            });
            const type = res.headers.get('content-type') ?? '';
            await res.arrayBuffer();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            const bad = res.status >= 500 || (res.status >= 400 && !type.startsWith('application/problem+json'));
            if (bad)
              failures.push(
                `${method.toUpperCase()} ${url}${query ? `?${query}` : ''} [${sent?.type ?? '-'}] ${sent?.text.slice(0, 200) ?? ''} -> ${res.status} ${type}`,
              );
            return !bad;
          }),
          { numRuns: RUNS_PER_OPERATION, interruptAfterTimeLimit: Math.max(1, TIME_LIMIT_MS - (Date.now() - started)), seed: 16 },
        )
        .catch(() => undefined); // every failure is collected above, with its request

      // one field at a time: a body valid by the schema with a single top-level field replaced by a hostile value
      // (random bodies rarely get every other field right, so values like these would seldom reach a handler)
      if (jsonSchema?.properties && pathParams.length === 0) {
        // the base has the required fields only: optional ones may be tied to others by refinements
        const required = new Set(jsonSchema.required ?? []);
        const minimal: FuzzSchema = {
          ...jsonSchema,
          properties: Object.fromEntries(Object.entries(jsonSchema.properties).filter(([name]) => required.has(name))),
        };
        const [base] = fc.sample(
          arbitraryOf(minimal, { ...options, junk: 0, hostileStrings: false }).filter(
            (v) => typeof v === 'object' && v !== null && !('unexpected_field' in v),
          ),
          { numRuns: 1, seed: 16 },
        );
        for (const name of Object.keys(jsonSchema.properties)) {
          for (const value of FIELD_MUTATIONS) {
            requests++;
            const text = JSON.stringify({ ...(base as object), [name]: value });
            const res = await fetch(`${api.platform.url}${path}`, {
              method: method.toUpperCase(),
              headers: { authorization: `Bearer ${allRoles}`, 'content-type': 'application/json' },
              body: text,
            });
            const type = res.headers.get('content-type') ?? '';
            await res.arrayBuffer();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            if (res.status >= 500 || (res.status >= 400 && !type.startsWith('application/problem+json')))
              failures.push(`${method.toUpperCase()} ${path} ${text.slice(0, 200)} -> ${res.status} ${type}`);
          }
        }
      }
    }
  }
  const operations = Object.values(doc.paths).reduce((n, m) => n + Object.keys(m).length, 0);
  console.log(
    `api fuzz: ${requests} requests over ${operations} operations in ${Date.now() - started} ms; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
  );
  expect(failures).toEqual([]);
  expect(requests).toBeGreaterThanOrEqual(operations * 5);
  expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
}, 90_000);
