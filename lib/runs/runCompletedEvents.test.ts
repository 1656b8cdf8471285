import { afterEach, describe, expect, it } from 'vitest';
import type { QueueMessage, QueuePort } from '../ports/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { createEmbeddedStores } from '../adapters/embedded/index.js';
import { sampleRun, sampleScorecard } from '../ports/contracts/index.js';
import { finalizeRun } from './finalizeRun.js';
import { RUN_COMPLETED_QUEUE, RunCompletedMessageSchema } from './runCompletedEvents.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());
const clock = { now: () => new Date('2026-03-02T00:00:00.000Z') };

function recordingQueue(): QueuePort & { sent: Array<{ queue: string; message: QueueMessage }> } {
  const sent: Array<{ queue: string; message: QueueMessage }> = [];
  return {
    sent,
    sendMessages: async <T>(queue: string, messages: readonly QueueMessage<T>[]) => {
      for (const message of messages) sent.push({ queue, message });
      return { accepted: messages.length, duplicates: 0 };
    },
  };
}

async function runWithCards(id: string, cards: number) {
  const { db, changeLog } = temps.open();
  const stores = createEmbeddedStores(db, changeLog);
  await stores.runs.createRun(sampleRun(id, { status: 'running', total_cases: cards }));
  await stores.scorecards.upsertScorecards(Array.from({ length: cards }, (_, i) => sampleScorecard(id, `c${i}`)));
  await stores.runStats.recomputeRunStats(id, cards);
  return stores;
}

describe('run-completed events', () => {
  it('finalizeRun announces a completed run once per call with a deterministic message id (a retried finalize is a duplicate)', async () => {
    const stores = await runWithCards('run-1', 3);
    const queue = recordingQueue();
    await finalizeRun('run-1', 'completed', { stores, clock, queue });
    await finalizeRun('run-1', 'completed', { stores, clock, queue });
    expect(queue.sent.map((s) => [s.queue, s.message.messageId])).toEqual([
      [RUN_COMPLETED_QUEUE, 'run-completed:run-1'],
      [RUN_COMPLETED_QUEUE, 'run-completed:run-1'],
    ]);
    expect(RunCompletedMessageSchema.parse(queue.sent[0]!.message.body)).toEqual({
      run_id: 'run-1',
      status: 'completed',
      completed_at: '2026-03-02T00:00:00.000Z',
    });
  });

  it('announces nothing for a cancelled or timed-out run', async () => {
    const stores = await runWithCards('run-2', 2);
    const queue = recordingQueue();
    await finalizeRun('run-2', 'cancelled', { stores, clock, queue });
    const partial = await runWithCards('run-3', 0);
    await partial.runs.updateRun('run-3', { total_cases: 5 });
    await finalizeRun('run-3', 'timed_out', { stores: partial, clock, queue });
    expect(queue.sent).toEqual([]);
  });
});
