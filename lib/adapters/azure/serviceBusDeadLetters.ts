import { randomUUID } from 'node:crypto';
import type {
  DeadLetterMessage,
  DeadLetterPort,
  ListDeadLettersOptions,
  ReplayDeadLettersOptions,
  ReplayResult,
} from '../../ports/index.js';
import { idText, replayCopy, REPLAY_ID_PROPERTY, toDeadLetterMessage } from './serviceBusMessages.js';
import type { SbClient, SbMessage, SbReceivedMessage, SbSender } from './serviceBusSurface.js';

export interface ServiceBusDeadLettersOptions {
  /** messages received from the dead-letter sub-queue per call (default 100) */
  receiveBatchSize?: number;
  /** how long one receive waits for messages before replay concludes the sub-queue is drained (default 2 s) */
  maxWaitTimeInMs?: number;
  /** replay by id looks at no more than this many dead letters (default 10,000; each is locked until the end) */
  maxScan?: number;
  now?: () => Date;
}

/**
 * Dead letters of Service Bus queues (`<queue>/$deadletterqueue`). List = peek (nothing is locked or changed).
 * Replay = receive in peek-lock mode, send a copy to the main queue (batched), then complete the dead-lettered
 * original: a crash in between duplicates, never loses. Replay by id holds the locks of the messages it skips
 * until it is done (so a receive never returns them twice) and abandons them at the end.
 */
export class ServiceBusDeadLetters implements DeadLetterPort {
  private readonly receiveBatchSize: number;
  private readonly maxWaitTimeInMs: number;
  private readonly maxScan: number;
  private readonly now: () => Date;

  constructor(
    private readonly client: SbClient,
    options: ServiceBusDeadLettersOptions = {},
  ) {
    this.receiveBatchSize = options.receiveBatchSize ?? 100;
    this.maxWaitTimeInMs = options.maxWaitTimeInMs ?? 2_000;
    this.maxScan = options.maxScan ?? 10_000;
    this.now = options.now ?? (() => new Date());
  }

  async listDeadLetters(queueName: string, options: ListDeadLettersOptions = {}): Promise<DeadLetterMessage[]> {
    const limit = options.limit ?? 100;
    const receiver = this.client.createReceiver(queueName, { subQueueType: 'deadLetter', receiveMode: 'peekLock' });
    try {
      const peeked: SbReceivedMessage[] = [];
      while (peeked.length < limit) {
        options.abortSignal?.throwIfAborted();
        const page = await receiver.peekMessages(Math.min(limit - peeked.length, 250));
        if (page.length === 0) break;
        peeked.push(...page);
      }
      return peeked.map(toDeadLetterMessage);
    } finally {
      await receiver.close();
    }
  }

  async replayDeadLetters(queueName: string, options: ReplayDeadLettersOptions = {}): Promise<ReplayResult> {
    const wanted = options.messageIds ? new Set(options.messageIds) : undefined;
    const replay = { id: randomUUID(), at: this.now() };
    const receiver = this.client.createReceiver(queueName, { subQueueType: 'deadLetter', receiveMode: 'peekLock' });
    const sender = this.client.createSender(queueName);
    const held: SbReceivedMessage[] = [];
    const seen = new Set<string>();
    const found = new Set<string>();
    let replayed = 0;
    try {
      while (!wanted || found.size < wanted.size) {
        options.abortSignal?.throwIfAborted();
        const batch = await receiver.receiveMessages(this.receiveBatchSize, { maxWaitTimeInMs: this.maxWaitTimeInMs });
        const fresh = batch.filter((m) => !seen.has(sequenceOf(m)));
        if (fresh.length === 0) {
          held.push(...batch); // locks expired and came round again: give them back below
          break;
        }
        const chosen: SbReceivedMessage[] = [];
        for (const m of fresh) {
          seen.add(sequenceOf(m));
          const ownCopy = m.applicationProperties?.[REPLAY_ID_PROPERTY] === replay.id;
          if (ownCopy || (wanted && !wanted.has(idText(m.messageId)))) held.push(m);
          else chosen.push(m);
        }
        held.push(...batch.filter((m) => !fresh.includes(m)));
        await sendBatched(
          sender,
          chosen.map((m) => replayCopy(m, replay)),
        );
        for (const m of chosen) {
          await receiver.completeMessage(m);
          found.add(idText(m.messageId));
          replayed++;
        }
        if (chosen.length === 0 && !wanted) break; // only our own copies are left
        if (seen.size >= this.maxScan) break;
      }
    } finally {
      for (const m of held) await receiver.abandonMessage(m).catch(() => undefined);
      await sender.close();
      await receiver.close();
    }
    return { replayed, notFound: wanted ? [...wanted].filter((id) => !found.has(id)) : [] };
  }
}

function sequenceOf(m: SbReceivedMessage): string {
  return m.sequenceNumber?.toString() ?? idText(m.messageId);
}

async function sendBatched(sender: SbSender, messages: SbMessage[]): Promise<void> {
  if (messages.length === 0) return;
  let batch = await sender.createMessageBatch();
  for (const message of messages) {
    if (batch.tryAddMessage(message)) continue;
    if (batch.count > 0) await sender.sendMessages(batch);
    batch = await sender.createMessageBatch();
    if (!batch.tryAddMessage(message))
      throw new Error(`dead-lettered message ${idText(message.messageId)} is too large to replay in one batch`);
  }
  if (batch.count > 0) await sender.sendMessages(batch);
}
