import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { HttpRequest, InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DURABLE_WEBHOOK_PATH, durableClientInput } from './clientInput.js';
import { createHubEnv, eventually, loadDurableApp, type HubEnv } from './durable.test-helpers.js';
import { createDurableHttpApi } from './httpApi.js';

type Functions = {
  InvocationContext: new (init: object) => InvocationContext;
  HttpRequest: new (init: { method: string; url: string }) => HttpRequest;
};
const functions = createRequire(import.meta.url)('@azure/functions') as Functions;

let env: HubEnv;
let server: Server;
let origin: string;
let api: ReturnType<typeof createDurableHttpApi>;
const seen: string[] = [];

function client(): df.DurableClient {
  const binding = df.input.durableClient();
  const context = new functions.InvocationContext({
    functionName: 'caller',
    options: { trigger: { type: 'httpTrigger', name: 'req' }, extraInputs: [binding], extraOutputs: [] },
  });
  context.extraInputs.set(binding, durableClientInput(origin, env.hub.taskHubName));
  return df.getClient(context);
}

beforeAll(async () => {
  env = createHubEnv(await loadDurableApp());
  env.hub.start();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      seen.push(`${req.method} ${url.pathname}${url.search}`);
      if (!url.pathname.startsWith(DURABLE_WEBHOOK_PATH)) return void res.writeHead(404).end();
      void api({
        method: req.method ?? 'GET',
        path: url.pathname.slice(DURABLE_WEBHOOK_PATH.length),
        query: url.searchParams,
        body: Buffer.concat(chunks).toString('utf8'),
      }).then((answer) => {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api = createDurableHttpApi(env.hub, { baseUrl: origin });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await env.close();
});

describe('durable HTTP API driven by the real DurableClient (durable-functions 3.5.0)', () => {
  it('starts, reports, raises an event into, and completes an orchestration', async () => {
    const durable = client();
    seen.length = 0;
    const id = await durable.startNew('fanOutTimerEvent', { instanceId: 'http-1', input: { count: 3, delayMs: 1 } });
    expect(id).toBe('http-1');
    expect(seen).toEqual([`POST ${DURABLE_WEBHOOK_PATH}/orchestrators/fanOutTimerEvent/http-1`]);

    await eventually(() => (env.hub.getStatus(id)?.customStatus as { phase?: string } | null)?.phase === 'waiting');
    const running = await durable.getStatus(id, { showHistory: true, showHistoryOutput: true, showInput: true });
    expect(running).toMatchObject({
      name: 'fanOutTimerEvent',
      instanceId: 'http-1',
      runtimeStatus: 'Running',
      input: { count: 3, delayMs: 1 },
      output: null,
      customStatus: { phase: 'waiting', sum: 6 },
    });
    expect(running.createdTime).toBeInstanceOf(Date);
    expect(running.history?.map((e) => (e as { EventType: string }).EventType)).toEqual([
      'ExecutionStarted',
      'TaskCompleted',
      'TaskCompleted',
      'TaskCompleted',
      'TimerFired',
    ]);

    await durable.raiseEvent(id, 'Approve', { by: 'http' });
    await env.hub.waitForCompletion(id, { timeoutInMs: 5000 });
    const done = await durable.getStatus(id);
    expect(done).toMatchObject({ runtimeStatus: 'Completed', output: { sum: 6, approval: { by: 'http' } } });
    await expect(durable.raiseEvent(id, 'Approve', 'late')).resolves.toBeUndefined();
    expect(seen).toContain(`POST ${DURABLE_WEBHOOK_PATH}/instances/http-1/raiseEvent/Approve`);
    expect(seen).toContain(`GET ${DURABLE_WEBHOOK_PATH}/instances/http-1?showHistory=true&showHistoryOutput=true&showInput=true`);
  });

  it('terminates and purges through the client, then reports the instance as missing', async () => {
    const durable = client();
    const id = await durable.startNew('waitsForever', { instanceId: 'http-2' });
    await durable.terminate(id, 'no longer needed');
    expect(await durable.getStatus(id)).toMatchObject({ runtimeStatus: 'Terminated', output: 'no longer needed' });
    await expect(durable.terminate(id, 'twice')).resolves.toBeUndefined();
    expect(await durable.purgeInstanceHistory(id)).toEqual({ instancesDeleted: 1 });
    expect(await durable.purgeInstanceHistory(id)).toEqual({ instancesDeleted: 0 });
    await expect(durable.getStatus(id)).rejects.toThrow(/HTTP 404 response.*http-2/);
    await expect(durable.raiseEvent(id, 'E', 1)).rejects.toThrow("No instance with ID 'http-2' found.");
    await expect(durable.terminate(id, 'gone')).rejects.toThrow("No instance with ID 'http-2' found.");
  });

  it('lists and purges by filter', async () => {
    const durable = client();
    await durable.startNew('waitsForever', { instanceId: 'http-list-1' });
    await eventually(() => env.hub.getStatus('http-list-1')?.runtimeStatus === 'Running');
    const all = await durable.getStatusAll();
    expect(all.map((s) => s.instanceId)).toContain('http-list-1');
    const running = await durable.getStatusBy({ runtimeStatus: [df.OrchestrationRuntimeStatus.Running] });
    expect(running.map((s) => s.instanceId)).toEqual(['http-list-1']);
    await durable.terminate('http-list-1', 'done');
    const purged = await durable.purgeInstanceHistoryBy({
      createdTimeFrom: new Date(0),
      runtimeStatus: [df.OrchestrationRuntimeStatus.Terminated],
    });
    expect(purged.instancesDeleted).toBeGreaterThanOrEqual(1);
    expect(env.hub.getStatus('http-list-1')).toBeUndefined();
  });

  it('rejects a duplicate running instance id (409) and an unknown orchestrator (400)', async () => {
    const durable = client();
    await durable.startNew('waitsForever', { instanceId: 'http-dup' });
    await expect(durable.startNew('waitsForever', { instanceId: 'http-dup' })).rejects.toThrow(
      /unexpected status code: 409.*already exists/,
    );
    await expect(durable.startNew('noSuchOrchestrator')).rejects.toThrow(/unexpected status code: 400.*doesn't exist/);
  });

  it('builds check-status responses whose URLs this API answers', async () => {
    const durable = client();
    const id = await durable.startNew('waitsForever', { instanceId: 'http-check' });
    const request = new functions.HttpRequest({ method: 'POST', url: `${origin}/api/start` });
    const response = durable.createCheckStatusResponse(request, id);
    const location = response.headers.get('Location') ?? '';
    expect(response.status).toBe(202);
    expect(location).toBe(`${origin}${DURABLE_WEBHOOK_PATH}/instances/http-check?taskHub=EvalPlatformHub&connection=Storage`);
    await eventually(() => env.hub.getStatus(id)?.runtimeStatus === 'Running');
    const polled = await fetch(location);
    expect(polled.status).toBe(202);
    expect(await polled.json()).toMatchObject({ instanceId: 'http-check', runtimeStatus: 'Running', customStatus: 'waiting' });
    const payload = (await response.json()) as Record<string, string>;
    const terminate = (payload.terminatePostUri ?? '').replace('{text}', 'via-link');
    expect((await fetch(terminate, { method: 'POST' })).status).toBe(202);
    expect(env.hub.getStatus(id)).toMatchObject({ runtimeStatus: 'Terminated', output: 'via-link' });
  });
});

describe('durable HTTP API routing', () => {
  it.each([
    { method: 'GET', path: '/instances/nope', status: 404 },
    { method: 'PUT', path: '/orchestrators/race', status: 405 },
    { method: 'POST', path: '/instances/x/suspend', status: 501 },
    { method: 'POST', path: '/instances/x/rewind', status: 501 },
    { method: 'GET', path: '/entities/counter/one', status: 501 },
    { method: 'GET', path: '/somewhere', status: 404 },
    { method: 'POST', path: '/orchestrators/race', body: '{not json', status: 400 },
    { method: 'GET', path: '/instances', query: 'runtimeStatus=Sleeping', status: 400 },
    { method: 'GET', path: '/instances/x', query: 'taskHub=OtherHub', status: 400 },
    { method: 'GET', path: '/instances/%E0%A4%A', status: 400 },
  ])('$method $path $query -> $status', async ({ method, path, query, body, status }) => {
    const answer = await api({ method, path, query: new URLSearchParams(query ?? ''), body: body ?? '' });
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ message: expect.any(String) });
  });
});
