import { app, input, output, type InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';
import { beforeAll, describe, expect, it } from 'vitest';
import { captureRegistrations } from './capture.js';
import { createInvoker, type DocumentWriter, type OutputDocument, type OutputMessage, type QueueSender } from './invoke.js';
import type { HostLogLevel } from './logger.js';
import type { FunctionRegistration } from './registration.js';

/** Records what the invoker sends and upserts (same method signatures as G's engine and containers). */
class RecordingStores implements QueueSender, DocumentWriter {
  sent: Array<[string, OutputMessage[]]> = [];
  upserted: Array<[string, OutputDocument[]]> = [];
  transactions = 0;
  send(queueName: string, messages: OutputMessage[]) {
    this.sent.push([queueName, messages]);
    return { accepted: messages.length, duplicates: 0 };
  }
  upsert(containerName: string, docs: OutputDocument[]) {
    this.upserted.push([containerName, docs]);
  }
}

const queueOut = output.serviceBusQueue({ connection: 'SB', queueName: 'next-stage' });
const docsOut = output.cosmosDB({ connection: 'C', databaseName: 'd', containerName: 'results' });
let captured: ReadonlyMap<string, FunctionRegistration>;
let seenContext: InvocationContext | undefined;

beforeAll(async () => {
  const registrations = await captureRegistrations(async () => {
    app.serviceBusQueue('worker', {
      connection: 'SB',
      queueName: 'work',
      extraOutputs: [queueOut, docsOut],
      return: output.serviceBusQueue({ connection: 'SB', queueName: 'audit' }),
      handler: (message, context) => {
        seenContext = context;
        const m = message as { send?: unknown; docs?: unknown; ret?: unknown; fail?: boolean };
        context.log('handling', m);
        if (m.fail) throw new Error('handler failed');
        if (m.send !== undefined) context.extraOutputs.set(queueOut, m.send);
        if (m.docs !== undefined) context.extraOutputs.set(docsOut, m.docs);
        return m.ret;
      },
    });
    app.http('starter', {
      extraInputs: [df.input.durableClient()],
      handler: (_request, context) => {
        seenContext = context;
        return { jsonBody: { hasClient: typeof df.getClient(context).startNew === 'function' } };
      },
    });
    app.timer('withBlobInput', {
      schedule: '0 0 * * * *',
      extraInputs: [input.storageBlob({ connection: 'S', path: 'c/b' })],
      handler: () => undefined,
    });
  });
  captured = new Map(registrations.map((r) => [r.name, r]));
});

function setup(options: { durable?: boolean } = {}) {
  const stores = new RecordingStores();
  const logs: Array<[HostLogLevel, string, Record<string, unknown> | undefined]> = [];
  const invoke = createInvoker({
    queues: stores,
    containers: stores,
    transaction: (write) => {
      stores.transactions += 1;
      write();
    },
    logger: { log: (level, message, properties) => void logs.push([level, message, properties]) },
    ...(options.durable
      ? {
          durableClientInput: () => ({
            taskHubName: 'hub',
            creationUrls: {},
            managementUrls: {},
            baseUrl: 'http://127.0.0.1:1/runtime/webhooks/durabletask/',
            requiredQueryStringParameters: '',
            rpcBaseUrl: 'http://127.0.0.1:1/runtime/webhooks/durabletask/',
          }),
        }
      : {}),
  });
  return { stores, logs, invoke };
}

const get = (name: string) => captured.get(name) as FunctionRegistration;

describe('createInvoker', () => {
  it('builds the InvocationContext from the registration and the trigger metadata', async () => {
    const { invoke, logs } = setup();
    await invoke(get('worker'), {}, { invocationId: 'inv-1', triggerMetadata: { deliveryCount: 2 } });
    expect({
      invocationId: seenContext?.invocationId,
      functionName: seenContext?.functionName,
      triggerMetadata: seenContext?.triggerMetadata,
      trigger: seenContext?.options.trigger.type,
      returnType: seenContext?.options.return?.type,
      extraOutputs: seenContext?.options.extraOutputs.map((o) => [o.name, o.type]),
    }).toEqual({
      invocationId: 'inv-1',
      functionName: 'worker',
      triggerMetadata: { deliveryCount: 2 },
      trigger: 'serviceBusTrigger',
      returnType: 'serviceBus',
      extraOutputs: [
        [queueOut.name, 'serviceBus'],
        [docsOut.name, 'cosmosDB'],
      ],
    });
    // no incoming trace: the invocation starts one, and its log line carries the ids
    const traceParent = seenContext?.traceContext?.traceParent ?? '';
    const [, traceId, spanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(traceParent) ?? [];
    expect(traceId).toBeDefined();
    expect(logs).toEqual([
      ['information', 'handling {}', { functionName: 'worker', invocationId: 'inv-1', trace_id: traceId, span_id: spanId }],
    ]);
  });

  it("continues the trigger's trace: a message's traceparent or Diagnostic-Id, a batch's shared trace, an HTTP request's header", async () => {
    const { invoke, logs } = setup();
    const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const other = '00-11111111111111111111111111111111-2222222222222222-01';
    const traceOf = async (options: Parameters<typeof invoke>[2]) => {
      await invoke(get('worker'), {}, options);
      return [seenContext?.traceContext?.traceParent, logs.at(-1)?.[2]?.trace_id, logs.at(-1)?.[2]?.span_id];
    };
    const continued = [parent, '0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331'];
    expect(await traceOf({ triggerMetadata: { applicationProperties: { traceparent: parent } } })).toEqual(continued);
    expect(await traceOf({ triggerMetadata: { applicationProperties: { 'Diagnostic-Id': parent } } })).toEqual(continued);
    expect(await traceOf({ triggerMetadata: { applicationPropertiesArray: [{ traceparent: parent }, { traceparent: parent }] } })).toEqual(
      continued,
    );
    expect(await traceOf({ traceParent: parent, triggerMetadata: {} })).toEqual(continued);
    // a batch of two traces, or an invalid traceparent, gets a trace of its own
    for (const triggerMetadata of [
      { applicationPropertiesArray: [{ traceparent: parent }, { traceparent: other }] },
      { applicationPropertiesArray: [{ traceparent: parent }, null] },
      { applicationProperties: { traceparent: '00-00000000000000000000000000000000-b7ad6b7169203331-01' } },
      { applicationProperties: { traceparent: 'not a traceparent' } },
    ]) {
      const [traceParent, traceId] = await traceOf({ triggerMetadata });
      expect(traceParent, JSON.stringify(triggerMetadata)).not.toContain('0af7651916cd43dd8448eb211c80319c');
      expect(traceParent).toBe(`00-${traceId}-${logs.at(-1)?.[2]?.span_id}-01`);
    }
  });

  it('writes logFields arguments as properties of the line, not into the message', async () => {
    const { invoke, logs } = setup();
    const { logFields } = await import('../telemetry/logFields.js');
    const registrations = await captureRegistrations(async () => {
      app.timer('fields', {
        schedule: '0 0 * * * *',
        handler: (_timer, context) => context.warn('run stalled', logFields({ run_id: 'r1', case_id: undefined, attempts: 2 })),
      });
    });
    await invoke(registrations[0]!, {}, { invocationId: 'inv-f' });
    expect(logs.at(-1)?.[0]).toBe('warning');
    expect(logs.at(-1)?.[1]).toBe('run stalled');
    expect(logs.at(-1)?.[2]).toMatchObject({ invocationId: 'inv-f', run_id: 'r1', attempts: 2 });
    expect(logs.at(-1)?.[2]).not.toHaveProperty('case_id');
    // where the worker formats the arguments into the message (Azure), the fields print as key=value
    const { format } = await import('node:util');
    expect(format('run stalled', logFields({ run_id: 'r1', attempts: 2 }))).toBe('run stalled run_id=r1 attempts=2');
  });

  it('generates an invocation id when none is given', async () => {
    const { invoke } = setup();
    await invoke(get('worker'), {});
    expect(seenContext?.invocationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ['nothing set', {}, [], [], 0],
    ['one message', { send: { a: 1 } }, [['next-stage', [{ body: { a: 1 } }]]], [], 1],
    ['an array is many messages', { send: ['x', 'y'] }, [['next-stage', [{ body: 'x' }, { body: 'y' }]]], [], 1],
    ['return binding', { ret: 7 }, [['audit', [{ body: 7 }]]], [], 1],
    ['documents', { docs: [{ id: 'a', v: 1 }] }, [], [['results', [{ id: 'a', v: 1 }]]], 1],
    [
      'all outputs in one transaction',
      { send: 1, docs: { id: 'b' }, ret: 'r' },
      [
        ['next-stage', [{ body: 1 }]],
        ['audit', [{ body: 'r' }]],
      ],
      [['results', [{ id: 'b' }]]],
      1,
    ],
  ])('routes outputs: %s', async (_, message, sent, upserted, transactions) => {
    const { invoke, stores } = setup();
    const result = await invoke(get('worker'), message);
    expect({ result, sent: stores.sent, upserted: stores.upserted, transactions: stores.transactions }).toEqual({
      result: (message as { ret?: unknown }).ret,
      sent,
      upserted,
      transactions,
    });
  });

  it('gives a document without id a generated one', async () => {
    const { invoke, stores } = setup();
    await invoke(get('worker'), { docs: { v: 1 } });
    expect(stores.upserted).toEqual([['results', [{ v: 1, id: expect.stringMatching(/^[0-9a-f-]{36}$/) }]]]);
  });

  it.each([
    ['the handler throws', { fail: true, send: 1 }, /handler failed/],
    ['a document is not an object', { send: 1, docs: [{ id: 'ok' }, 'nope'] }, /expects an object/],
    ['a document id is not a string', { docs: { id: 5 } }, /"id" must be a non-empty string/],
  ])('writes nothing when %s', async (_, message, error) => {
    const { invoke, stores } = setup();
    await expect(invoke(get('worker'), message)).rejects.toThrow(error);
    expect({ sent: stores.sent, upserted: stores.upserted }).toEqual({ sent: [], upserted: [] });
  });

  it('fills durableClient inputs so that df.getClient(context) works', async () => {
    const { invoke } = setup({ durable: true });
    expect(await invoke(get('starter'), {})).toEqual({ jsonBody: { hasClient: true } });
    expect(seenContext?.options.extraInputs.map((i) => i.type)).toEqual(['durableClient']);
  });

  it.each([
    ['a durable client without a task hub', 'starter', /needs a durable client/],
    ['an input binding it cannot serve', 'withBlobInput', /input binding .* of type "blob" is not served/],
  ])('rejects %s', async (_, name, error) => {
    const { invoke } = setup();
    await expect(invoke(get(name), {})).rejects.toThrow(error);
  });
});
