import { DefaultAzureCredential } from '@azure/identity';
import { ServiceBusClient } from '@azure/service-bus';
import { describe, expect, it } from 'vitest';
import { deadLetterPortContract } from '../../ports/contracts/deadLetters.contract.js';
import { ServiceBusDeadLetters } from './serviceBusDeadLetters.js';
import { ServiceBusQueuePort } from './serviceBusQueuePort.js';

/**
 * Contract run against a real Service Bus namespace, only when EVALP_TEST_SERVICEBUS_NAMESPACE is set
 * (`<ns>.servicebus.windows.net`, reached with DefaultAzureCredential: `az login` with Azure Service Bus Data Owner
 * on the namespace). EVALP_TEST_SERVICEBUS_QUEUES names two existing, dedicated queues with duplicate detection on
 * (default `evalp-contract-a,evalp-contract-b`): every test empties them.
 */
const namespace = process.env.EVALP_TEST_SERVICEBUS_NAMESPACE?.trim();
const [queueA, queueB] = (process.env.EVALP_TEST_SERVICEBUS_QUEUES ?? 'evalp-contract-a,evalp-contract-b')
  .split(',')
  .map((q) => q.trim()) as [string, string];
if (!namespace)
  console.log('serviceBus.contract.test.ts: skipped (set EVALP_TEST_SERVICEBUS_NAMESPACE to run it against a real Service Bus namespace)');

async function purge(client: ServiceBusClient, queue: string): Promise<void> {
  for (const subQueueType of [undefined, 'deadLetter'] as const) {
    const receiver = client.createReceiver(queue, { receiveMode: 'receiveAndDelete', ...(subQueueType ? { subQueueType } : {}) });
    while ((await receiver.receiveMessages(250, { maxWaitTimeInMs: 1_000 })).length > 0);
    await receiver.close();
  }
}

describe.skipIf(!namespace)('Service Bus (real namespace)', () => {
  const client = () => new ServiceBusClient(namespace!, new DefaultAzureCredential());

  deadLetterPortContract('ServiceBusDeadLetters (real Service Bus)', async () => {
    const sb = client();
    await purge(sb, queueA);
    await purge(sb, queueB);
    return {
      deadLetters: new ServiceBusDeadLetters(sb),
      queues: [queueA, queueB],
      seed: async (queue, messages, { reason, description }) => {
        const sender = sb.createSender(queue);
        await sender.sendMessages(messages.map((m) => ({ ...m })));
        await sender.close();
        const receiver = sb.createReceiver(queue);
        let left = messages.length;
        while (left > 0) {
          const received = await receiver.receiveMessages(left, { maxWaitTimeInMs: 5_000 });
          for (const m of received)
            await receiver.deadLetterMessage(m, { deadLetterReason: reason, deadLetterErrorDescription: description });
          left -= received.length;
        }
        await receiver.close();
      },
      drain: async (queue) => {
        const receiver = sb.createReceiver(queue, { receiveMode: 'receiveAndDelete' });
        const out = [];
        for (
          let batch = await receiver.receiveMessages(250, { maxWaitTimeInMs: 3_000 });
          batch.length;
          batch = await receiver.receiveMessages(250, { maxWaitTimeInMs: 1_000 })
        ) {
          out.push(
            ...batch.map((m) => ({
              body: m.body,
              applicationProperties: m.applicationProperties ?? {},
              ...(m.correlationId === undefined ? {} : { correlationId: String(m.correlationId) }),
            })),
          );
        }
        await receiver.close();
        return out;
      },
      dispose: () => sb.close(),
    };
  });

  it('ServiceBusQueuePort sends 1,200 messages in batches and duplicate detection drops a resend', async () => {
    const sb = client();
    try {
      await purge(sb, queueA);
      const port = new ServiceBusQueuePort(sb);
      const messages = Array.from({ length: 1_200 }, (_, i) => ({ messageId: `contract:${i}`, body: { i } }));
      await port.sendMessages(queueA, messages);
      await port.sendMessages(queueA, messages.slice(0, 100));
      await port.close();
      const receiver = sb.createReceiver(queueA, { receiveMode: 'receiveAndDelete' });
      const ids: string[] = [];
      for (
        let batch = await receiver.receiveMessages(500, { maxWaitTimeInMs: 5_000 });
        batch.length;
        batch = await receiver.receiveMessages(500, { maxWaitTimeInMs: 2_000 })
      ) {
        ids.push(...batch.map((m) => String(m.messageId)));
      }
      await receiver.close();
      expect(ids.sort()).toEqual(messages.map((m) => m.messageId).sort());
    } finally {
      await sb.close();
    }
  }, 120_000);
});
