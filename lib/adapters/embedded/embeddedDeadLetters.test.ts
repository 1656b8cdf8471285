import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHostDatabase } from '../../host/database.js';
import { SqliteQueueEngine } from '../../host/servicebus/index.js';
import { deadLetterPortContract } from '../../ports/contracts/deadLetters.contract.js';
import { EmbeddedDeadLetters } from './embeddedDeadLetters.js';

deadLetterPortContract('EmbeddedDeadLetters (SQLite queue engine)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalp-dlq-'));
  const db = openHostDatabase(dir);
  const engine = new SqliteQueueEngine(db);
  return {
    deadLetters: new EmbeddedDeadLetters(engine),
    queues: ['evaluate-cases', 'judge-cases'],
    seed: async (queue, messages, { reason, description }) => {
      engine.send(queue, [...messages]);
      const received = engine.receive(queue, { maxMessages: messages.length });
      engine.deadLetter(
        received.map((m) => m.lockToken),
        { reason, description },
      );
    },
    drain: async (queue) => {
      const received = engine.receive(queue, { maxMessages: 10_000 });
      engine.complete(received.map((m) => m.lockToken));
      return received.map((m) => ({
        body: m.body,
        applicationProperties: m.applicationProperties,
        ...(m.correlationId ? { correlationId: m.correlationId } : {}),
      }));
    },
    dispose: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
