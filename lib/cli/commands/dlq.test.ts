import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openHostDatabase } from '../../host/database.js';
import { SqliteQueueEngine } from '../../host/servicebus/index.js';
import { QUEUES } from '../../runs/queues.js';
import { Command } from 'commander';
import { CliError } from '../cliError.js';
import { dlqCommand } from './dlq.js';

let dataDir: string;

/** Dead-letters three evaluate messages and one judge message in a fresh embedded data dir. */
function seed(dir: string): void {
  const db = openHostDatabase(dir);
  const engine = new SqliteQueueEngine(db);
  engine.send(
    QUEUES.evaluate,
    ['a', 'b', 'c'].map((id) => ({
      messageId: `run-1:${id}:evaluate:1`,
      body: { run_id: 'run-1', test_case_id: id },
      correlationId: 'run-1',
    })),
  );
  engine.send(QUEUES.judge, [{ messageId: 'run-1:z:judge:1', body: { test_case_id: 'z' } }]);
  for (const queue of [QUEUES.evaluate, QUEUES.judge]) {
    const locked = engine.receive(queue, { maxMessages: 10 });
    engine.deadLetter(
      locked.map((m) => m.lockToken),
      {
        reason: 'MaxDeliveryCountExceeded',
        description: 'Message could not be consumed after 10 delivery attempts. Last error: Error: boom',
      },
    );
  }
  db.close();
}

/** `evalp` with only this command, reporting a CliError as main.ts does (message on stderr, exit 2). */
async function run(argv: string[]): Promise<void> {
  try {
    await new Command('evalp').addCommand(dlqCommand()).parseAsync(argv);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    process.stderr.write(`evalp: ${error.message}\n`);
    process.exitCode = 2;
  }
}

/** Runs `evalp ...` in this process; returns what it wrote and the exit code it set. */
async function evalp(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  process.exitCode = 0;
  try {
    await run(['node', 'evalp', ...args]);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { code, stdout: out.join(''), stderr: err.join('') };
}

function engineOf(dir: string) {
  const db = openHostDatabase(dir);
  return { engine: new SqliteQueueEngine(db), close: () => db.close() };
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'evalp-dlq-cli-'));
  seed(dataDir);
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('evalp dlq (embedded data dir)', () => {
  it('lists dead letters as a table, oldest first, with the reason and the last error', async () => {
    const r = await evalp('dlq', 'list', 'evaluate', '--data-dir', dataDir, '--limit', '2');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/run-1:a:evaluate:1[\s\S]*run-1:b:evaluate:1/);
    expect(r.stdout).not.toContain('run-1:c:evaluate:1');
    expect(r.stdout).toContain('MaxDeliveryCountExceeded');
    expect(r.stdout).toContain('Last error: Error: boom');
    expect(r.stdout).toContain(`2 dead-lettered message(s) in evaluate-cases (the embedded data in ${dataDir}); --limit 2 reached`);
  });

  it('lists as JSON with --json, by full queue name', async () => {
    const r = await evalp('dlq', 'list', 'judge-cases', '--data-dir', dataDir, '--json');
    expect(JSON.parse(r.stdout)).toEqual([
      {
        messageId: 'run-1:z:judge:1',
        sequenceNumber: '4',
        deadLetterReason: 'MaxDeliveryCountExceeded',
        deadLetterErrorDescription: 'Message could not be consumed after 10 delivery attempts. Last error: Error: boom',
        deliveryCount: 1,
        enqueuedTimeUtc: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        applicationProperties: {},
        body: { test_case_id: 'z' },
      },
    ]);
  });

  it('says so when a queue has no dead letters', async () => {
    const r = await evalp('dlq', 'list', 'execute', '--data-dir', dataDir);
    expect([r.code, r.stdout]).toEqual([0, `no dead-lettered messages in execute-cases (the embedded data in ${dataDir})\n`]);
  });

  it('replays chosen ids to the queue; an id not found exits 1 and is named', async () => {
    const r = await evalp('dlq', 'replay', 'evaluate', '--data-dir', dataDir, '--id', 'run-1:b:evaluate:1', 'nope');
    expect(r).toEqual({
      code: 1,
      stdout: `replayed 1 message(s) to evaluate-cases (the embedded data in ${dataDir})\n`,
      stderr: 'evalp: not in the dead-letter queue of evaluate-cases: nope\n',
    });
    const { engine, close } = engineOf(dataDir);
    expect(engine.counts(QUEUES.evaluate)).toEqual({ active: 1, scheduled: 0, locked: 0, deadLettered: 2 });
    expect(engine.receive(QUEUES.evaluate, { maxMessages: 5 }).map((m) => [m.messageId, m.body, m.correlationId])).toEqual([
      ['run-1:b:evaluate:1', { run_id: 'run-1', test_case_id: 'b' }, 'run-1'],
    ]);
    close();
  });

  it('replays everything with --all and leaves other queues alone', async () => {
    const r = await evalp('dlq', 'replay', 'evaluate-cases', '--data-dir', dataDir, '--all');
    expect([r.code, r.stdout]).toEqual([0, `replayed 3 message(s) to evaluate-cases (the embedded data in ${dataDir})\n`]);
    const { engine, close } = engineOf(dataDir);
    expect([
      engine.counts(QUEUES.evaluate).active,
      engine.counts(QUEUES.evaluate).deadLettered,
      engine.counts(QUEUES.judge).deadLettered,
    ]).toEqual([3, 0, 1]);
    close();
  });

  it('a replay whose messages fail again for the same reason stops and reports the reason instead of looping', async () => {
    // the finding: `dlq replay --all` sent poison straight back to the dead-letter queue, every time
    const first = await evalp('dlq', 'replay', 'evaluate', '--data-dir', dataDir, '--all');
    expect([first.code, first.stdout]).toEqual([0, `replayed 3 message(s) to evaluate-cases (the embedded data in ${dataDir})\n`]);
    {
      // a worker fails them the same way again: 'a' and 'b' with the same reason, 'c' with a different one
      const { engine, close } = engineOf(dataDir);
      const locked = engine.receive(QUEUES.evaluate, { maxMessages: 10 });
      expect(locked.map((m) => m.applicationProperties.DeadLetterReason)).toEqual([
        'MaxDeliveryCountExceeded',
        'MaxDeliveryCountExceeded',
        'MaxDeliveryCountExceeded',
      ]);
      const same = locked.filter((m) => m.messageId !== 'run-1:c:evaluate:1').map((m) => m.lockToken);
      engine.deadLetter(same, {
        reason: 'MaxDeliveryCountExceeded',
        description: 'Message could not be consumed after 10 delivery attempts. Last error: Error: boom',
      });
      engine.deadLetter(
        locked.filter((m) => m.messageId === 'run-1:c:evaluate:1').map((m) => m.lockToken),
        {
          reason: 'MaxDeliveryCountExceeded',
          description: 'Message could not be consumed after 10 delivery attempts. Last error: Error: other',
        },
      );
      close();
    }
    const second = await evalp('dlq', 'replay', 'evaluate', '--data-dir', dataDir, '--all');
    expect(second).toEqual({
      code: 1,
      stdout: `replayed 1 message(s) to evaluate-cases (the embedded data in ${dataDir})\n`,
      stderr:
        'evalp: 2 message(s) not replayed: they failed again for the same reason after a replay, so another replay would loop.\n' +
        '  reason: MaxDeliveryCountExceeded: Message could not be consumed after 10 delivery attempts. Last error: Error: boom\n' +
        '  fix the cause, then replay them with --force (or cancel their run)\n',
    });
    const { engine, close } = engineOf(dataDir);
    expect([engine.counts(QUEUES.evaluate).active, engine.counts(QUEUES.evaluate).deadLettered]).toEqual([1, 2]);
    close();
    const forced = await evalp('dlq', 'replay', 'evaluate', '--data-dir', dataDir, '--all', '--force');
    expect([forced.code, forced.stdout]).toEqual([0, `replayed 2 message(s) to evaluate-cases (the embedded data in ${dataDir})\n`]);
  });

  it.each([
    [
      'an unknown queue',
      ['dlq', 'list', 'nope'],
      /unknown queue "nope": the stage queues are evaluate-cases \(evaluate\), execute-cases \(execute\), judge-cases \(judge\)/,
    ],
    ['neither --id nor --all', ['dlq', 'replay', 'judge'], /give either --id <messageId\.\.\.> or --all/],
    ['both --id and --all', ['dlq', 'replay', 'judge', '--id', 'x', '--all'], /give either --id <messageId\.\.\.> or --all/],
    ['a bad --limit', ['dlq', 'list', 'judge', '--limit', '0'], /--limit must be a positive whole number/],
    ['a bad backend', ['dlq', 'list', 'judge', '--backend', 'cloud'], /must be "embedded" or "azure", got "cloud"/],
    ['a missing queue argument', ['dlq', 'list'], /missing required argument 'queue'/],
  ])('exits 2 for %s', async (_name, args, message) => {
    const r = await evalp(...args, '--data-dir', dataDir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('exits 2 naming the data dir when there is no embedded database there', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'evalp-dlq-none-'));
    const r = await evalp('dlq', 'list', 'judge', '--data-dir', empty);
    expect([r.code, r.stderr]).toEqual([
      2,
      `evalp: no embedded platform data in ${empty} (start it with \`evalp start\`, or pass --data-dir / EVALP_DATA_DIR)\n`,
    ]);
    rmSync(empty, { recursive: true, force: true });
  });

  it('with the azure backend and no Service Bus settings, exits 2 naming the setting', async () => {
    const saved = { ns: process.env.ServiceBusConnection__fullyQualifiedNamespace, cs: process.env.ServiceBusConnection };
    delete process.env.ServiceBusConnection__fullyQualifiedNamespace;
    delete process.env.ServiceBusConnection;
    try {
      const r = await evalp('dlq', 'list', 'judge', '--backend', 'azure');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('set ServiceBusConnection__fullyQualifiedNamespace');
    } finally {
      if (saved.ns !== undefined) process.env.ServiceBusConnection__fullyQualifiedNamespace = saved.ns;
      if (saved.cs !== undefined) process.env.ServiceBusConnection = saved.cs;
    }
  });
});
