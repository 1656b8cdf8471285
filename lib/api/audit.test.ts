import { describe, expect, it } from 'vitest';
import { auditRecordOf, localKeyAuditRecord, requestIdOf } from './audit.js';
import type { Principal } from '../domain/roles.js';
import type { RouteDefinition } from './route.js';

const alice: Principal = { id: 'key-a', name: 'alice', roles: ['platform-admin'], kind: 'api-key' };
const route = (name: string, method: RouteDefinition['method'], path: string) => ({ name, method, path, role: 'platform-admin' as const });
const headers = (h: Record<string, string>) => ({ get: (n: string) => h[n] ?? null });

describe('auditRecordOf', () => {
  it.each<[string, ReturnType<typeof route>, unknown, unknown, number, [string, string | null, string | null] | undefined]>([
    ['a create: the id of the answer', route('runs-create', 'POST', 'v1/runs'), {}, { id: 'run-1' }, 202, ['create', 'runs', 'run-1']],
    [
      'an action on an item',
      route('runs-cancel', 'DELETE', 'v1/runs/{id}'),
      { id: 'run-1' },
      { id: 'run-1' },
      202,
      ['cancel', 'runs', 'run-1'],
    ],
    [
      'a sub-resource action keeps the parent id',
      route('runs-retry-failures', 'POST', 'v1/runs/{id}/retry-failures'),
      { id: 'run-1' },
      { id: 'run-2' },
      202,
      ['retry-failures', 'runs', 'run-1'],
    ],
    [
      'several params are joined',
      route('tool-catalogs-replace', 'PUT', 'v1/tool-catalogs/{name}/versions/{version}'),
      { name: 'retail', version: '1.0' },
      {},
      200,
      ['replace', 'tool-catalogs', 'retail/1.0'],
    ],
    [
      'a route name without the entity prefix: the method',
      route('importCases', 'POST', 'v1/test-cases/import'),
      {},
      { imported: 3 },
      200,
      ['create', 'test-cases', null],
    ],
    [
      'the compatibility route: job_id',
      route('evaluate-start', 'POST', 'evaluate'),
      {},
      { job_id: 'job-1' },
      202,
      ['start', 'evaluate', 'job-1'],
    ],
    ['a GET is no change', route('runs-get', 'GET', 'v1/runs/{id}'), { id: 'r' }, {}, 200, undefined],
    ['a failure is no change', route('runs-create', 'POST', 'v1/runs'), {}, {}, 422, undefined],
  ])('%s', (_label, r, params, body, status, expected) => {
    const record = auditRecordOf({
      route: r,
      principal: alice,
      params,
      result: { status, body },
      requestId: 'req-1',
      at: '2026-03-01T12:00:00.000Z',
    });
    expect(record && [record.action, record.entity_type, record.entity_id]).toEqual(expected);
    if (record) {
      expect(record).toEqual({
        id: expect.any(String),
        at: '2026-03-01T12:00:00.000Z',
        actor: { id: 'key-a', name: 'alice', kind: 'api-key' },
        method: r.method,
        route: r.name,
        action: expected![0],
        entity_type: expected![1],
        entity_id: expected![2],
        status,
        request_id: 'req-1',
      });
    }
  });

  it('records nothing without a principal (anonymous routes)', () => {
    expect(
      auditRecordOf({
        route: route('x-create', 'POST', 'x'),
        principal: undefined,
        params: {},
        result: { status: 201 },
        requestId: 'r',
        at: '2026-03-01T12:00:00Z',
      }),
    ).toBeUndefined();
  });
});

describe('requestIdOf', () => {
  it.each([
    [{ 'x-request-id': 'abc-123' }, 'abc-123'],
    [{ 'x-ms-client-request-id': 'ms-1' }, 'ms-1'],
    [{ 'x-request-id': 'has space' }, undefined],
    [{ 'x-request-id': 'x'.repeat(201) }, undefined],
    [{}, undefined],
  ])('%j', (h, expected) => {
    const id = requestIdOf(headers(h));
    if (expected) expect(id).toBe(expected);
    else expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('localKeyAuditRecord', () => {
  it.each([
    ['create', 201],
    ['revoke', 200],
  ] as const)('a local %s of a key', (action, status) => {
    const actor = { id: 'local:ops', name: 'ops', kind: 'local' as const };
    expect(localKeyAuditRecord({ actor, action, keyId: 'abc', at: '2026-03-01T12:00:00Z' })).toEqual({
      id: expect.any(String),
      at: '2026-03-01T12:00:00Z',
      actor,
      method: 'CLI',
      route: `keys-${action}`,
      action,
      entity_type: 'keys',
      entity_id: 'abc',
      status,
      request_id: null,
    });
  });
});
