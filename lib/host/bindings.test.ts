import { describe, expect, it } from 'vitest';
import { planBindings, resolveAppSettings, validateBindings } from './bindings.js';
import type { BindingMetadata, FunctionRegistration } from './registration.js';

function registration(name: string, bindings: Record<string, BindingMetadata>): FunctionRegistration {
  const trigger = Object.values(bindings).find((b) => /trigger$/i.test(b.type)) as BindingMetadata;
  return { name, kind: 'serviceBusTrigger', trigger, metadata: { name, bindings }, callback: () => undefined };
}

const trigger: BindingMetadata = { type: 'serviceBusTrigger', direction: 'in', name: 'm', queueName: '%WORK_QUEUE%', connection: 'SB' };

describe('planBindings', () => {
  it('sorts bindings like @azure/functions and routes outputs', () => {
    const plan = planBindings(
      registration('f', {
        m: trigger,
        client: { type: 'durableClient', direction: 'in' },
        out1: { type: 'serviceBus', direction: 'out', queueName: 'q' },
        out2: { type: 'cosmosDB', direction: 'out', collectionName: 'legacy' },
        $return: { type: 'http', direction: 'out' },
      }),
    );
    expect(plan).toEqual({
      trigger: { ...trigger, name: 'm' },
      returnBinding: { type: 'http', direction: 'out', name: '$return' },
      extraInputs: [{ type: 'durableClient', direction: 'in', name: 'client' }],
      extraOutputs: [
        { type: 'serviceBus', direction: 'out', queueName: 'q', name: 'out1' },
        { type: 'cosmosDB', direction: 'out', collectionName: 'legacy', name: 'out2' },
      ],
      inputs: [{ kind: 'durableClient', bindingName: 'client' }],
      outputs: [
        { kind: 'serviceBus', bindingName: 'out1', queueName: 'q' },
        { kind: 'cosmosDB', bindingName: 'out2', containerName: 'legacy' },
      ],
      returnOutput: { kind: 'http', bindingName: '$return' },
    });
  });

  it('lists every binding the host cannot serve', () => {
    const bad = registration('g', {
      m: trigger,
      blob: { type: 'blob', direction: 'in' },
      topic: { type: 'serviceBus', direction: 'out', topicName: 't' },
      noQueue: { type: 'serviceBus', direction: 'out' },
      noContainer: { type: 'cosmosDB', direction: 'out' },
      table: { type: 'table', direction: 'out' },
    });
    expect(validateBindings([bad])).toEqual([
      'function "g": input binding "blob" of type "blob" is not served by the embedded host',
      'function "g": serviceBus output "topic" targets a topic (only queues are served)',
      'function "g": serviceBus output "noQueue" has no queueName',
      'function "g": cosmosDB output "noContainer" has no containerName',
      'function "g": output binding "table" of type "table" is not served by the embedded host',
    ]);
  });
});

describe('resolveAppSettings', () => {
  it('replaces %Setting% in binding options from the environment', () => {
    const resolved = resolveAppSettings(
      registration('f', { m: trigger, o: { type: 'cosmosDB', direction: 'out', containerName: 'c-%ENV%-x' } }),
      {
        WORK_QUEUE: 'work',
        ENV: 'dev',
      },
    );
    expect({ trigger: resolved.trigger, bindings: resolved.metadata.bindings }).toEqual({
      trigger: { ...trigger, queueName: 'work' },
      bindings: { m: { ...trigger, queueName: 'work' }, o: { type: 'cosmosDB', direction: 'out', containerName: 'c-dev-x' } },
    });
  });

  it('names every missing setting', () => {
    const reg = registration('f', { m: trigger, o: { type: 'serviceBus', direction: 'out', queueName: '%OUT_Q%' } });
    expect(() => resolveAppSettings(reg, {})).toThrow(
      'Function "f" refers to app settings "WORK_QUEUE", "OUT_Q", which are not set in the environment.',
    );
  });
});
