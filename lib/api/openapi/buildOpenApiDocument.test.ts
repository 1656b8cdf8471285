import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../routeTable.js';
import { buildOpenApiDocument, openApiPath } from './buildOpenApiDocument.js';

const doc = buildOpenApiDocument(ROUTES, { title: 'EvalPlatform', version: '0.1.0', serverUrl: 'http://127.0.0.1:7071' }) as {
  components: { schemas: Record<string, object> };
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        security: unknown[];
        parameters?: Array<{ name: string; in: string; required: boolean; schema: object }>;
        requestBody?: { content: Record<string, { schema: object }> };
        responses: Record<string, { content?: Record<string, { schema: object }> }>;
      }
    >
  >;
};

describe('buildOpenApiDocument', () => {
  it('is a valid OpenAPI 3.1 document by an OpenAPI validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('covers every route of the table exactly once, by operationId', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    const expected = ROUTES.map((r) => `${r.method} ${openApiPath(r.path)} ${r.name}`);
    expect(operations.sort()).toEqual(expected.sort());
    expect(new Set(ROUTES.map((r) => r.name)).size).toBe(ROUTES.length);
  });

  it('declares every path template parameter as a required path parameter', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(methods)) {
        const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
        expect(declared.map((p) => p.name).sort(), `${op.operationId}`).toEqual([...names].sort());
        expect(declared.every((p) => p.required)).toBe(true);
      }
    }
  });

  it('leaves only health and the document itself anonymous', () => {
    const anonymous = Object.values(doc.paths)
      .flatMap((methods) => Object.values(methods))
      .filter((op) => op.security.length === 0)
      .map((op) => op.operationId);
    expect(anonymous.sort()).toEqual(['health', 'openapi']);
  });

  it('gives every schema in it as JSON Schema 2020-12 that compiles, with its references resolved', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    let compiled = 0;
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) {
        const schemas = [
          ...(op.parameters ?? []).map((p) => p.schema),
          ...Object.values(op.requestBody?.content ?? {}).map((c) => c.schema),
          ...Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {}).map((c) => c.schema)),
        ];
        for (const schema of schemas) {
          // refs point at the document's components: compile each schema with them at its root, as a validator of the document would
          expect(() => ajv.compile({ ...schema, components: doc.components }), `${op.operationId}`).not.toThrow();
          compiled++;
        }
      }
    }
    expect(compiled).toBeGreaterThan(ROUTES.length);
  });

  it('describes a run request body with its required fields and the trigger metadata', () => {
    const body = doc.paths['/api/v1/runs']!.post!.requestBody!.content['application/json']!.schema as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
    };
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['suite_id', 'target_id', 'client_id', 'trigger_metadata', 'config', 'baseline_run_id']),
    );
    expect(Object.keys(body.properties.trigger_metadata!.properties ?? {})).toEqual(expect.arrayContaining(['commit_sha', 'pr_number']));
  });

  it('maps error responses to problem+json and lists 401/403/429 on authenticated routes', () => {
    const get = doc.paths['/api/v1/runs/{id}']!.get!;
    expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '429']));
    expect(Object.keys(get.responses['404']!.content ?? {})).toEqual(['application/problem+json']);
  });

  it('documents imports by their media types and streamed exports and reports by theirs', () => {
    const importOp = doc.paths['/api/v1/test-cases/import']!.post!;
    expect(Object.keys(importOp.requestBody!.content)).toEqual(
      expect.arrayContaining(['application/json', 'text/csv', 'application/x-ndjson', 'multipart/form-data']),
    );
    expect(Object.keys(importOp.responses)).toEqual(expect.arrayContaining(['413', '415', '422']));
    expect(Object.keys(doc.paths['/api/v1/test-cases/export']!.get!.responses['200']!.content ?? {})).toEqual([
      'application/x-ndjson',
      'text/csv',
    ]);
    expect(Object.keys(doc.paths['/api/v1/runs/{id}/report']!.get!.responses['200']!.content ?? {})).toEqual([
      'application/json',
      'text/markdown',
      'text/html',
      'application/xml',
    ]);
  });
});
