import { Command, Option } from 'commander';
import type { Alert, Run, TestCase } from '../../domain/index.js';
import type { FailureView } from '../../api/index.js';
import type { RunHeadline } from '../../runs/index.js';
import {
  clientFor,
  entityTable,
  pageTable,
  processIO,
  wholeNumber,
  withConnection,
  type CommandIO,
  type ConnectionOptions,
  type Page,
} from './resourceCommands.js';

const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '-' : `${(v * 100).toFixed(1)}%`);
const ms = (v: number | null | undefined): string => (v === null || v === undefined ? '-' : `${Math.round(v)} ms`);
const oneLine = (text: string, max = 70): string => {
  const t = text.replace(/\s+/g, ' ');
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

interface PageOptions extends ConnectionOptions {
  limit: string;
  offset: string;
}

const paged = (cmd: Command): Command => cmd.option('--limit <n>', 'page size 1-1000', '20').option('--offset <n>', 'skip this many', '0');

function pageQuery(opts: PageOptions, filters: Record<string, string | undefined>): string {
  const q = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  q.set('limit', String(wholeNumber(opts.limit, '--limit')));
  q.set('offset', String(wholeNumber(opts.offset, '--offset')));
  return q.toString();
}

type RunRow = Run & { headline: RunHeadline | null };

/** `evalp runs list`: the run list with each run's headline statistics (GET /api/v1/runs). */
export function runsCommand(io: CommandIO = processIO): Command {
  const runs = new Command('runs').description('read runs (submit and status start and follow one)');
  runs.addCommand(
    paged(
      withConnection(
        new Command('list')
          .description('runs, newest first, with pass rate, p95 latency and cost per case (GET /api/v1/runs)')
          .option('--client <id>', "only this client's runs")
          .option('--suite <id>', 'only runs of this suite')
          .option('--target <id>', 'only runs against this target')
          .addOption(
            new Option('--status <status>', 'only runs in this status').choices([
              'pending',
              'running',
              'completed',
              'failed',
              'cancelled',
              'timed_out',
            ]),
          ),
      ),
    ).action(async (opts: PageOptions & { client?: string; suite?: string; target?: string; status?: string }) => {
      const page = await clientFor(opts).request<Page<RunRow>>(
        'GET',
        `v1/runs?${pageQuery(opts, { client_id: opts.client, suite_id: opts.suite, target_id: opts.target, status: opts.status })}`,
      );
      if (opts.json) return io.out(`${JSON.stringify(page, null, 2)}\n`);
      io.out(
        pageTable(page, [
          ['run', (r) => r.id],
          ['status', (r) => r.status],
          ['done', (r) => `${r.headline?.completed ?? 0}/${r.total_cases}`],
          ['pass rate', (r) => pct(r.headline?.pass_rate)],
          ['p95', (r) => ms(r.headline?.p95_latency_ms)],
          ['cost/case', (r) => (r.headline?.cost_per_case_usd == null ? '-' : `$${r.headline.cost_per_case_usd.toFixed(4)}`)],
          ['client', (r) => r.client_id ?? ''],
          ['suite', (r) => r.suite_id],
          ['target', (r) => r.target_id],
          ['created', (r) => r.created_at.slice(0, 19)],
        ]),
      );
    }),
  );
  return runs;
}

/** `evalp failures RUN`: why a run's cases failed (GET /api/v1/runs/{id}/failures). */
export function failuresCommand(io: CommandIO = processIO): Command {
  return paged(
    withConnection(
      new Command('failures')
        .description('the failed cases of a run with their failing stage, error code and message (GET /api/v1/runs/{id}/failures)')
        .argument('<runId>')
        .addOption(new Option('--stage <stage>', 'only cases failing at this stage').choices(['syntax', 'logic', 'execution', 'semantics']))
        .option('--error-code <code>', 'only this error code')
        .option('--category <name>', 'only this category')
        .option('--tag <tag>', 'only cases with this tag'),
    ),
  ).action(async (runId: string, opts: PageOptions & { stage?: string; errorCode?: string; category?: string; tag?: string }) => {
    const query = pageQuery(opts, { failing_stage: opts.stage, error_code: opts.errorCode, category: opts.category, tag: opts.tag });
    const page = await clientFor(opts).request<Page<FailureView>>('GET', `v1/runs/${encodeURIComponent(runId)}/failures?${query}`);
    if (opts.json) return io.out(`${JSON.stringify(page, null, 2)}\n`);
    io.out(
      pageTable(page, [
        ['case', (f) => f.test_case_id],
        ['stage', (f) => f.failing_stage ?? ''],
        ['error', (f) => f.error_code ?? ''],
        ['category', (f) => f.category ?? ''],
        ['message', (f) => oneLine(f.stages[0]?.message ?? '')],
      ]),
    );
  });
}

/** `evalp alerts`: regression alerts, newest first (GET /api/v1/alerts). */
export function alertsCommand(io: CommandIO = processIO): Command {
  return paged(
    withConnection(
      new Command('alerts')
        .description('regression alerts, newest first (GET /api/v1/alerts)')
        .option('--run <id>', "only this run's alerts")
        .option('--client <id>', "only this client's alerts")
        .addOption(new Option('--severity <level>', 'only this severity').choices(['low', 'medium', 'high', 'critical']))
        .addOption(new Option('--status <status>', 'only open or acknowledged alerts').choices(['open', 'acknowledged'])),
    ),
  ).action(async (opts: PageOptions & { run?: string; client?: string; severity?: string; status?: string }) => {
    const page = await clientFor(opts).request<Page<Alert>>(
      'GET',
      `v1/alerts?${pageQuery(opts, { run_id: opts.run, client_id: opts.client, severity: opts.severity, status: opts.status })}`,
    );
    if (opts.json) return io.out(`${JSON.stringify(page, null, 2)}\n`);
    io.out(
      pageTable(page, [
        ['raised', (a) => a.created_at.slice(0, 19)],
        ['severity', (a) => a.severity],
        ['metric', (a) => a.metric],
        ['run', (a) => a.run_id],
        ['status', (a) => a.status],
        ['message', (a) => oneLine(a.message, 90)],
      ]),
    );
  });
}

/** `evalp cases show ID`: one test case (GET /api/v1/test-cases/{id}). */
export function caseShowCommand(io: CommandIO = processIO): Command {
  return withConnection(new Command('show').description('one test case (GET /api/v1/test-cases/{id})').argument('<id>')).action(
    async (id: string, opts: ConnectionOptions) => {
      const testCase = await clientFor(opts).request<TestCase>('GET', `v1/test-cases/${encodeURIComponent(id)}`);
      io.out(opts.json ? `${JSON.stringify(testCase, null, 2)}\n` : entityTable(testCase as unknown as Record<string, unknown>));
    },
  );
}
