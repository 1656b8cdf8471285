import Table from 'cli-table3';
import { Command } from 'commander';
import type { DeadLetterMessage } from '../../ports/index.js';
import { CliError } from '../cliError.js';
import { usageErrorsExit2 } from './cliOptions.js';
import { openDeadLetters, resolveBackend, resolveQueueName } from './dlqBackend.js';
import { planReplay } from './dlqReplayPlan.js';

/** dead letters looked at by one replay (oldest first) */
const REPLAY_SCAN_LIMIT = 100_000;

interface CommonOptions {
  dataDir: string;
  backend?: string;
}

const common = (command: Command): Command =>
  command
    .option('--data-dir <dir>', 'embedded platform state (env EVALP_DATA_DIR)', process.env.EVALP_DATA_DIR ?? '.evalplatform')
    .option('--backend <backend>', 'embedded | azure (env EVALP_BACKEND; azure reads ServiceBusConnection__fullyQualifiedNamespace)');

/** `evalp dlq list|replay`: dead-lettered messages of the stage queues, on the embedded data dir or Azure Service Bus. */
export function dlqCommand(): Command {
  const list = common(
    new Command('list')
      .description('list dead-lettered messages of a queue, oldest first (nothing is changed)')
      .argument('<queue>', 'evaluate | execute | judge (or evaluate-cases, execute-cases, judge-cases)')
      .option('--limit <n>', 'at most this many', '20')
      .option('--json', 'print the messages as JSON'),
  ).action(async (queue: string, opts: CommonOptions & { limit: string; json?: boolean }) => {
    const limit = Number(opts.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new CliError(`--limit must be a positive whole number, got "${opts.limit}"`);
    await withDeadLetters(opts, async ({ port, where }) => {
      const name = resolveQueueName(queue);
      const messages = await port.listDeadLetters(name, { limit });
      if (opts.json) process.stdout.write(JSON.stringify(messages, null, 2) + '\n');
      else if (messages.length === 0) process.stdout.write(`no dead-lettered messages in ${name} (${where})\n`);
      else
        process.stdout.write(
          `${deadLetterTable(messages)}\n${messages.length} dead-lettered message(s) in ${name} (${where})${messages.length === limit ? `; --limit ${limit} reached` : ''}\n`,
        );
    });
  });

  const replay = common(
    new Command('replay')
      .description(
        'send dead-lettered messages back to their queue (a copy, then the dead letter is removed); messages that failed again for the same reason after a replay are held back and their reason reported; exit 1 if any was held back or an --id was not found',
      )
      .argument('<queue>', 'evaluate | execute | judge (or evaluate-cases, execute-cases, judge-cases)')
      .option('--id <messageId...>', 'replay these messages (repeatable)')
      .option('--all', 'replay every dead-lettered message of the queue')
      .option('--force', 'also replay messages that already failed again for the same reason after a replay'),
  ).action(async (queue: string, opts: CommonOptions & { id?: string[]; all?: boolean; force?: boolean }) => {
    if (Boolean(opts.id?.length) === Boolean(opts.all)) throw new CliError('give either --id <messageId...> or --all');
    await withDeadLetters(opts, async ({ port, where }) => {
      const name = resolveQueueName(queue);
      const all = await port.listDeadLetters(name, { limit: REPLAY_SCAN_LIMIT });
      const wanted = opts.all ? all : all.filter((m) => opts.id!.includes(m.messageId));
      const plan = planReplay(wanted, { force: opts.force ?? false });
      const missing = opts.all ? [] : opts.id!.filter((id) => !all.some((m) => m.messageId === id));
      const result = plan.replay.length ? await port.replayDeadLetters(name, { messageIds: plan.replay }) : { replayed: 0, notFound: [] };
      process.stdout.write(`replayed ${result.replayed} message(s) to ${name} (${where})\n`);
      for (const group of plan.repeated) {
        process.stderr.write(
          `evalp: ${group.message_ids.length} message(s) not replayed: they failed again for the same reason after a replay, so another replay would loop.\n` +
            `  reason: ${group.reason}: ${truncate(group.description, 300)}\n  fix the cause, then replay them with --force (or cancel their run)\n`,
        );
      }
      const notFound = [...new Set([...missing, ...result.notFound])];
      if (notFound.length) process.stderr.write(`evalp: not in the dead-letter queue of ${name}: ${notFound.join(', ')}\n`);
      if (notFound.length || plan.repeated.length) process.exitCode = 1;
    });
  });

  return new Command('dlq')
    .description('list and replay dead-lettered messages of the stage queues (embedded data dir, or Azure with EVALP_BACKEND=azure)')
    .addCommand(usageErrorsExit2(list))
    .addCommand(usageErrorsExit2(replay));
}

async function withDeadLetters(
  opts: CommonOptions,
  use: (opened: Awaited<ReturnType<typeof openDeadLetters>>) => Promise<void>,
): Promise<void> {
  const opened = await openDeadLetters(resolveBackend(opts.backend, process.env), { dataDir: opts.dataDir, env: process.env });
  try {
    await use(opened);
  } finally {
    await opened.close();
  }
}

function deadLetterTable(messages: readonly DeadLetterMessage[]): string {
  const table = new Table({
    head: ['seq', 'message id', 'reason', 'deliveries', 'enqueued (UTC)', 'description'],
    style: { head: [] },
    wordWrap: true,
    colWidths: [null, null, null, null, null, 60],
  });
  for (const m of messages) {
    table.push([
      m.sequenceNumber,
      m.messageId,
      m.deadLetterReason,
      m.deliveryCount,
      m.enqueuedTimeUtc?.toISOString() ?? '',
      truncate(m.deadLetterErrorDescription, 160),
    ]);
  }
  return table.toString();
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
