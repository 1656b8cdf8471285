import type { Command } from 'commander';
import type { Run } from '../../domain/index.js';
import {
  clientFor,
  pageTable,
  processIO,
  resourceCommand,
  wholeNumber,
  withConnection,
  type CommandIO,
  type ConnectionOptions,
  type Page,
} from './resourceCommands.js';

/** `evalp clients list|get|create --file|runs ID|delete`. */
export function clientsCommand(io: CommandIO = processIO): Command {
  const cmd = resourceCommand(
    {
      name: 'clients',
      description: 'manage clients (teams/tenants: suites, target, schedule, notify list)',
      noun: 'client',
      collection: 'v1/clients',
      columns: [
        ['id', (c) => String(c.id)],
        ['name', (c) => String(c.name)],
        ['suites', (c) => (c.suite_ids as string[]).join(', ')],
        ['target', (c) => String(c.target_id)],
        ['schedule (UTC)', (c) => (typeof c.schedule_cron === 'string' ? c.schedule_cron : '-')],
        ['notify', (c) => String((c.notify as unknown[]).length)],
      ],
    },
    io,
  );
  withConnection(cmd.command('runs').description("a client's runs, newest first (GET /api/v1/clients/{id}/runs)").argument('<id>'))
    .option('--status <status>', 'only runs in this status (pending, running, completed, failed, cancelled, timed_out)')
    .option('--limit <n>', 'page size (1-1000)', '20')
    .option('--offset <n>', 'skip this many', '0')
    .action(async (id: string, opts: ConnectionOptions & { status?: string; limit: string; offset: string }) => {
      const query = new URLSearchParams({
        limit: String(wholeNumber(opts.limit, '--limit')),
        offset: String(wholeNumber(opts.offset, '--offset')),
        ...(opts.status ? { status: opts.status } : {}),
      });
      const page = await clientFor(opts).request<Page<Run>>('GET', `v1/clients/${encodeURIComponent(id)}/runs?${query}`);
      io.out(
        opts.json
          ? `${JSON.stringify(page, null, 2)}\n`
          : pageTable(page, [
              ['run', (r) => r.id],
              ['status', (r) => r.status],
              ['trigger', (r) => r.triggered_by],
              ['suite', (r) => r.suite_id],
              ['target', (r) => r.target_id],
              ['cases', (r) => String(r.total_cases)],
              ['created', (r) => r.created_at],
            ]),
      );
    });
  return cmd;
}
