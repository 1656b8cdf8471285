import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type EmbeddedHost, type StartHostOptions } from './host.js';
import { CONTAINERS, QUEUES } from './testapp/names.js';

const dataDir = mkdtempSync(join(tmpdir(), 'embedded-host-'));
const keys = { functionKey: 'test-function-key', adminKey: 'test-admin-key' };
const options: StartHostOptions = {
  entry: () => import('./testapp/index.js'),
  dataDir,
  port: 0,
  ...keys,
  maxRequestBodyBytes: 64 * 1024,
  requestTimeoutInMs: 800,
  pollIntervalMs: 20,
  queueEngine: { maxDeliveryCount: 3, lockDurationMs: 5000 },
};
let host: EmbeddedHost;
const startedAt = Date.now();

beforeAll(async () => {
  host = await startHost(options);
});
afterAll(async () => {
  await host.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await pause(20);
  }
}

async function call(path: string, init: RequestInit = {}) {
  const res = await fetch(`${host.url}${path}`, init);
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, body: type.includes('json') ? (JSON.parse(text) as unknown) : text, headers: res.headers };
}

function docs(container: string): Array<Record<string, unknown>> {
  const latest = new Map<string, Record<string, unknown>>();
  for (const entry of host.changeLog.read(container, 0, 10_000)) latest.set(entry.id, JSON.parse(entry.body) as Record<string, unknown>);
  return [...latest.values()];
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

describe('embedded host: registration capture', () => {
  it('captures every binding the sample app declares', () => {
    const pick = (keysOf: string[]) => (o: Record<string, unknown>) =>
      Object.fromEntries(keysOf.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
    const summary = Object.fromEntries(
      host.registrations.map((r) => [
        r.name,
        {
          kind: r.kind,
          ...pick([
            'route',
            'methods',
            'authLevel',
            'queueName',
            'cardinality',
            'containerName',
            'leaseContainerName',
            'schedule',
            'runOnStartup',
            'useMonitor',
          ])(r.trigger),
          outputs: Object.values(r.metadata.bindings)
            .filter((b) => b.direction === 'out')
            .map((b) => `${b.type}:${String(b.queueName ?? b.containerName ?? '')}`),
          inputs: Object.values(r.metadata.bindings)
            .filter((b) => b.direction === 'in' && !/trigger$/i.test(b.type))
            .map((b) => b.type),
        },
      ]),
    );
    expect(summary).toEqual({
      getItem: { kind: 'httpTrigger', route: 'items/{id}', methods: ['GET'], authLevel: 'anonymous', outputs: ['http:'], inputs: [] },
      putItem: {
        kind: 'httpTrigger',
        route: 'items/{id:int}',
        methods: ['PUT'],
        authLevel: 'function',
        outputs: ['http:', 'cosmosDB:items'],
        inputs: [],
      },
      purgeItems: { kind: 'httpTrigger', route: 'items/{id?}', methods: ['DELETE'], authLevel: 'admin', outputs: ['http:'], inputs: [] },
      echo: {
        kind: 'httpTrigger',
        route: 'echo/{*rest}',
        methods: ['GET', 'POST'],
        authLevel: 'anonymous',
        outputs: ['http:'],
        inputs: [],
      },
      submitOrders: {
        kind: 'httpTrigger',
        route: 'orders',
        methods: ['POST'],
        authLevel: 'anonymous',
        outputs: ['http:', 'serviceBus:orders'],
        inputs: [],
      },
      processOrder: { kind: 'serviceBusTrigger', queueName: 'orders', outputs: ['serviceBus:shipments'], inputs: [] },
      shipBatch: { kind: 'serviceBusTrigger', queueName: 'shipments', cardinality: 'many', outputs: ['cosmosDB:shipments'], inputs: [] },
      poisonWorker: { kind: 'serviceBusTrigger', queueName: 'poison', outputs: [], inputs: [] },
      shipmentsFeed: {
        kind: 'cosmosDBTrigger',
        containerName: 'shipments',
        leaseContainerName: 'leases',
        outputs: ['cosmosDB:ledger'],
        inputs: [],
      },
      heartbeat: { kind: 'timerTrigger', schedule: '*/1 * * * * *', useMonitor: true, outputs: ['cosmosDB:ticks'], inputs: [] },
      startupTask: { kind: 'timerTrigger', schedule: '0 0 0 1 1 *', runOnStartup: true, outputs: ['cosmosDB:ticks'], inputs: [] },
      square: { kind: 'activityTrigger', outputs: [], inputs: [] },
      fanOut: { kind: 'orchestrationTrigger', outputs: [], inputs: [] },
      startFanOut: {
        kind: 'httpTrigger',
        route: 'orchestrations/fanout',
        methods: ['POST'],
        authLevel: 'anonymous',
        outputs: ['http:'],
        inputs: ['durableClient'],
      },
      approveOrchestration: {
        kind: 'httpTrigger',
        route: 'orchestrations/{id}/approve',
        methods: ['POST'],
        authLevel: 'anonymous',
        outputs: ['http:'],
        inputs: ['durableClient'],
      },
      orchestrationStatus: {
        kind: 'httpTrigger',
        route: 'orchestrations/{id}',
        methods: ['GET'],
        authLevel: 'anonymous',
        outputs: ['http:'],
        inputs: ['durableClient'],
      },
    });
  });
});

describe('embedded host: HTTP triggers', () => {
  it('maps route values, query, headers and cookies', async () => {
    const { status, body, headers } = await call('/api/items/42?tag=a&tag=b');
    expect({ status, body, header: headers.get('x-item-id'), cookie: headers.get('set-cookie') }).toEqual({
      status: 200,
      body: { id: '42', tags: ['a', 'b'] },
      header: '42',
      cookie: 'lastItem=42; Path=/; HttpOnly',
    });
  });

  it.each([
    ['PUT', '/api/items/7', undefined, 401],
    ['PUT', '/api/items/7', 'test-function-key', 201],
    ['PUT', '/api/items/7', 'test-admin-key', 201],
    ['DELETE', '/api/items', 'test-function-key', 401],
    ['DELETE', '/api/items', 'test-admin-key', 200],
    ['DELETE', '/api/items/3', 'test-admin-key', 200],
    ['PUT', '/api/items/abc', 'test-function-key', 405],
    ['GET', '/api/nowhere', undefined, 404],
  ])('%s %s with key %s -> %i', async (method, path, key, expected) => {
    const init: RequestInit = {
      method,
      headers: key ? { 'x-functions-key': key } : {},
      ...(method === 'PUT' ? { body: '{"name":"pen"}' } : {}),
    };
    expect((await call(path, init)).status).toBe(expected);
  });

  it('writes the cosmosDB output of an HTTP function', async () => {
    await call('/api/items/8?code=test-function-key', { method: 'PUT', body: '{"name":"ink"}' });
    expect(host.containers.get(CONTAINERS.items, '8')).toMatchObject({ id: '8', name: 'ink' });
  });

  it.each([
    ['/api/echo/a/b?status=418', {}, 418, { rest: 'a/b', method: 'GET' }],
    ['/api/echo?mode=text', { method: 'POST', body: 'plain words' }, 200, 'plain words'],
    ['/api/echo?mode=empty', {}, 204, ''],
    ['/api/echo?mode=length', { method: 'POST', body: 'x'.repeat(64 * 1024) }, 200, { bytes: 65536 }],
  ])('maps HttpResponseInit: %s', async (path, init, status, body) => {
    const response = await call(path, init);
    expect({ status: response.status, body: typeof body === 'object' ? expect.objectContaining(body) : response.body }).toEqual({
      status,
      body: typeof body === 'object' ? response.body : body,
    });
  });

  it.each([
    ['a handler error', '/api/echo?mode=throw', {}, 500],
    ['a non-object result', '/api/echo?mode=bad', {}, 500],
    ['a body over the limit', '/api/echo?mode=length', { method: 'POST', body: 'x'.repeat(64 * 1024 + 1) }, 413],
    ['a slow function', '/api/echo?mode=slow&ms=1500', {}, 504],
  ])('answers %s with a problem document', async (_, path, init, status) => {
    const response = await call(path, init);
    expect({ status: response.status, type: (response.body as { type: string }).type }).toEqual({ status, type: 'about:blank' });
    expect(JSON.stringify(response.body)).not.toContain('secret internal detail');
  });
});

describe('embedded host: queues and change feed', () => {
  it('carries orders through a one trigger, a many trigger, a cosmosDB output and the change feed', async () => {
    const orders = Array.from({ length: 6 }, (_, i) => ({ orderId: `o-${i}`, qty: i + 1 }));
    expect((await call('/api/orders', json(orders))).body).toEqual({ accepted: 6 });
    const ledger = await until(() => {
      const entries = docs(CONTAINERS.ledger);
      return entries.length === 6 && entries;
    });
    expect(ledger.map((d) => [d.id, d.qty]).sort()).toEqual(orders.map((o) => [`ledger-${o.orderId}`, o.qty]).sort());
    const shipments = docs(CONTAINERS.shipments);
    expect(shipments.every((d) => typeof d.messageId === 'string' && (d.batchSize as number) >= 1)).toBe(true);
    // settlements are buffered (one transaction per batch): wait until the completes land
    await until(() => host.queues.counts(QUEUES.orders).locked === 0);
    expect(host.queues.counts(QUEUES.orders)).toEqual({ active: 0, scheduled: 0, locked: 0, deadLettered: 0 });
  });

  it('dead-letters a message that always fails after exactly maxDeliveryCount deliveries', async () => {
    host.queues.send(QUEUES.poison, [{ body: { bad: true }, messageId: 'poison-1' }]);
    await until(() => host.queues.counts(QUEUES.poison).deadLettered === 1);
    const [dead] = host.queues.listDeadLetters(QUEUES.poison);
    expect({ id: dead?.messageId, count: dead?.deliveryCount, reason: dead?.deadLetterReason }).toEqual({
      id: 'poison-1',
      count: 3,
      reason: 'MaxDeliveryCountExceeded',
    });
  });

  it('drops a duplicate messageId', () => {
    expect(
      host.queues.send(QUEUES.poison, [
        { body: 1, messageId: 'dup-1' },
        { body: 2, messageId: 'dup-1' },
      ]),
    ).toEqual({ accepted: 1, duplicates: 1 });
  });
});

describe('embedded host: timers', () => {
  it('ran the runOnStartup timer at start and fires the six-field schedule every second', async () => {
    const ticks = await until(() => {
      const all = docs(CONTAINERS.ticks);
      return all.filter((t) => t.functionName === 'heartbeat').length >= 2 && all;
    });
    const startup = ticks.filter((t) => t.functionName === 'startupTask');
    expect(startup.map((t) => t.isPastDue)).toEqual([false]);
    expect(Date.parse(startup[0]?.firedAt as string) - startedAt).toBeLessThan(3000);
    const beats = ticks.filter((t) => t.functionName === 'heartbeat');
    expect(beats.every((t) => Date.parse(t.next as string) % 1000 === 0)).toBe(true);
  });
});

describe('embedded host: durable functions', () => {
  it('runs a fan-out, a durable timer and an external event started and approved over HTTP', async () => {
    const started = await call('/api/orchestrations/fanout', json({ count: 10, delayMs: 300 }));
    expect(started.status).toBe(202);
    const { instanceId } = started.body as { instanceId: string };
    const waiting = await until(async () => {
      const { body } = await call(`/api/orchestrations/${instanceId}`);
      const status = body as { customStatus?: { stage?: string } };
      return status.customStatus?.stage === 'awaiting-approval' && status;
    });
    expect(waiting).toEqual({ runtimeStatus: 'Running', customStatus: { stage: 'awaiting-approval', sum: 385 }, output: null });
    expect((await call(`/api/orchestrations/${instanceId}/approve`, json({ by: 'alice' }))).status).toBe(202);
    const done = await until(async () => {
      const { body } = await call(`/api/orchestrations/${instanceId}`);
      return (body as { runtimeStatus: string }).runtimeStatus === 'Completed' && body;
    });
    expect(done).toEqual({
      runtimeStatus: 'Completed',
      customStatus: { stage: 'awaiting-approval', sum: 385 },
      output: { sum: 385, approvedBy: 'alice' },
    });
  });
});

describe('embedded host: durable webhooks need the system key (as in Azure)', () => {
  const webhook = '/runtime/webhooks/durabletask';
  it('answers 401 problem+json without a key or with a wrong one, and nothing is terminated', async () => {
    const started = await call('/api/orchestrations/fanout', json({ count: 1, delayMs: 60_000 }));
    const { instanceId } = started.body as { instanceId: string };
    for (const path of [
      `${webhook}/instances/${instanceId}/terminate?reason=x`,
      `${webhook}/instances/${instanceId}/terminate?reason=x&code=wrong`,
    ]) {
      const refused = await call(path, { method: 'POST' });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect((refused.body as { detail: string }).detail).toMatch(/system key/);
    }
    expect((await call(`${webhook}/instances/${instanceId}`)).status).toBe(401);
    expect((await call(`${webhook}/instances`, { headers: { 'x-functions-key': keys.functionKey } })).status).toBe(401);
    expect(host.taskHub.getStatus(instanceId)?.runtimeStatus).not.toBe('Terminated');
    // the system key (query or header) and the admin key open it
    expect((await call(`${webhook}/instances/${instanceId}?code=${encodeURIComponent(host.keys.durableTask ?? '')}`)).status).toBe(202);
    expect((await call(`${webhook}/instances/${instanceId}`, { headers: { 'x-functions-key': keys.adminKey } })).status).toBe(202);
    const terminated = await call(`${webhook}/instances/${instanceId}/terminate?reason=test`, {
      method: 'POST',
      headers: { 'x-functions-key': host.keys.durableTask ?? '' },
    });
    expect(terminated.status).toBe(202);
    await until(() => host.taskHub.getStatus(instanceId)?.runtimeStatus === 'Terminated');
  });

  it("the app's own durable client still works: its rpcBaseUrl carries the key as Basic credentials", async () => {
    const started = await call('/api/orchestrations/fanout', json({ count: 2, delayMs: 1 }));
    expect(started.status).toBe(202);
    const { instanceId } = started.body as { instanceId: string };
    const viaApp = await call(`/api/orchestrations/${instanceId}`);
    expect(viaApp.status).toBe(200);
    expect(viaApp.body).toMatchObject({ runtimeStatus: expect.any(String) });
    const basic = (password: string) => ({ authorization: `Basic ${Buffer.from(`durabletask:${password}`).toString('base64')}` });
    expect((await call(`${webhook}/instances/${instanceId}`, { headers: basic('wrong') })).status).toBe(401);
    expect((await call(`${webhook}/instances/${instanceId}`, { headers: basic(host.keys.durableTask ?? '') })).status).toBeLessThan(300);
  });
});

describe('embedded host: lifecycle', () => {
  it('stops gracefully (in-flight request finishes), then restarts on the same data with a past-due timer', async () => {
    const ledgerWrites = host.changeLog.read(CONTAINERS.ledger, 0, 10_000).length;
    const inFlight = call('/api/echo?mode=slow&ms=300');
    await pause(50);
    const url = host.url;
    await host.stop();
    expect((await inFlight).status).toBe(200);
    await expect(fetch(`${url}/api/items/1`)).rejects.toThrow();
    expect(host.db.open).toBe(false);

    await pause(1100); // the heartbeat misses at least one occurrence while the host is down
    host = await startHost(options);
    const pastDue = await until(() => docs(CONTAINERS.ticks).find((t) => t.functionName === 'heartbeat' && t.isPastDue === true));
    expect(pastDue).toMatchObject({ functionName: 'heartbeat', isPastDue: true });
    // the change feed resumed from its checkpoint: no shipment was delivered again, so no new ledger write
    await pause(200);
    expect(host.changeLog.read(CONTAINERS.ledger, 0, 10_000)).toHaveLength(ledgerWrites);
  });
});
