import { Command } from 'commander';
import type { Benchmark, BenchmarkRun, Leaderboard } from '../../domain/index.js';
import { CliError } from '../cliError.js';
import type { ApiClient } from '../apiClient.js';
import { addCreateFromFileCommand, addListCommand, itemPath } from './definitionCommands.js';
import { fixedText as num, pctText as pct } from './metricText.js';
import { clientFor, processIO, table, withConnection, type CommandIO, type ConnectionOptions } from './resourceCommands.js';

/** `--wait` ends with this exit code when the benchmark run did not complete every task (partially failed or failed). */
export const BENCHMARK_NOT_COMPLETED_EXIT = 3;

const path = itemPath('v1/benchmarks');

/** A benchmark run as text: its status and one row per task (status, run, pass rate, the reason of a failure or skip). */
export function benchmarkRunText(run: BenchmarkRun): string {
  const rows = run.tasks.map((t) => {
    const def = run.definition.tasks.find((d) => d.id === t.task_id);
    return [
      t.task_id,
      def?.depends_on.join(', ') || '-',
      t.status,
      t.run_id ?? '-',
      t.scored === null ? '-' : `${pct(t.pass_rate)} (${t.passed}/${t.scored})`,
      t.reason ?? '',
    ];
  });
  return (
    `benchmark run ${run.id} of ${run.benchmark_id} (${run.definition.name}, parallelism ${run.definition.parallelism}): ${run.status}` +
    `${run.error ? ` (${run.error})` : ''}\n${table(['task', 'depends on', 'status', 'run', 'pass rate', 'reason'], rows)}\n`
  );
}

/** The leaderboard as a table: pass rate with its interval, latency p50/p95, cost, passes per dollar, badges. */
export function leaderboardText(board: Leaderboard): string {
  const rows = board.entries.map((e) => [
    e.participant,
    e.task_ids.join(', '),
    String(e.scored),
    e.pass_rate.estimate === null ? 'n/a' : `${pct(e.pass_rate.estimate)} [${pct(e.pass_rate.lower)}, ${pct(e.pass_rate.upper)}]`,
    num(e.latency_p50_ms, 0),
    num(e.latency_p95_ms, 0),
    num(e.cost_usd, 4),
    num(e.accuracy_per_dollar, 1),
    e.badges.join(', '),
  ]);
  return `${table(
    [
      'participant',
      'tasks',
      'scored',
      `pass rate [${Math.round(board.confidence * 100)}% interval]`,
      'p50 ms',
      'p95 ms',
      'cost USD',
      'passes/$',
      'badges',
    ],
    rows,
  )}\n`;
}

async function waitForBenchmarkRun(api: ApiClient, benchmarkId: string, runId: string, timeoutMs: number): Promise<BenchmarkRun> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const run = await api.request<BenchmarkRun>('GET', path(benchmarkId, `/runs/${encodeURIComponent(runId)}`));
    if (run.status !== 'running') return run;
    if (Date.now() > until) throw new CliError(`benchmark run ${runId} still running after ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** `evalp benchmarks list|create --file|run [--wait]|show|leaderboard`. */
export function benchmarksCommand(io: CommandIO = processIO): Command {
  const cmd = new Command('benchmarks').description(
    'Benchmark suites: tasks (suite version x target x config) run as a dependency graph, then a leaderboard',
  );
  addListCommand<Benchmark>(cmd, io, {
    collection: 'v1/benchmarks',
    description: 'list benchmarks',
    head: ['id', 'name', 'tasks', 'parallelism', 'created'],
    row: (b) => [b.id, b.name, String(b.tasks.length), String(b.parallelism), b.created_at],
  });
  addCreateFromFileCommand<Benchmark>(cmd, io, {
    collection: 'v1/benchmarks',
    noun: 'benchmark',
    description: 'create a benchmark from a JSON file (the body of POST /api/v1/benchmarks; "-" reads stdin)',
    created: (b) => `created benchmark ${b.id} (${b.tasks.length} tasks, parallelism ${b.parallelism})`,
  });
  withConnection(
    cmd
      .command('run')
      .description('start a benchmark run; with --wait, wait for it and print its tasks and leaderboard')
      .argument('<id>')
      .option('--wait', `wait for the run to finish (exit ${BENCHMARK_NOT_COMPLETED_EXIT} unless every task completed)`)
      .option('--timeout <seconds>', 'with --wait: give up after this long', '3600'),
  ).action(async (id: string, opts: ConnectionOptions & { wait?: boolean; timeout: string }) => {
    const api = clientFor(opts);
    let run = await api.request<BenchmarkRun>('POST', path(id, '/runs'));
    if (!opts.wait) return void io.out(opts.json ? `${JSON.stringify(run, null, 2)}\n` : `started benchmark run ${run.id} of ${id}\n`);
    const seconds = Number(opts.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new CliError(`--timeout: a positive number of seconds, got "${opts.timeout}"`);
    run = await waitForBenchmarkRun(api, id, run.id, seconds * 1000);
    if (run.status !== 'completed') io.setExitCode(BENCHMARK_NOT_COMPLETED_EXIT);
    io.out(
      opts.json
        ? `${JSON.stringify(run, null, 2)}\n`
        : `${benchmarkRunText(run)}${run.leaderboard ? leaderboardText(run.leaderboard) : ''}`,
    );
  });
  withConnection(
    cmd
      .command('show')
      .description('a benchmark (definition and its runs), or one of its runs (tasks and leaderboard)')
      .argument('<id>')
      .argument('[run-id]'),
  ).action(async (id: string, runId: string | undefined, opts: ConnectionOptions) => {
    const api = clientFor(opts);
    if (runId) {
      const run = await api.request<BenchmarkRun>('GET', path(id, `/runs/${encodeURIComponent(runId)}`));
      return void io.out(
        opts.json
          ? `${JSON.stringify(run, null, 2)}\n`
          : `${benchmarkRunText(run)}${run.leaderboard ? leaderboardText(run.leaderboard) : ''}`,
      );
    }
    const benchmark = await api.request<Benchmark>('GET', path(id));
    const runs = (await api.request<{ items: BenchmarkRun[] }>('GET', path(id, '/runs'))).items;
    if (opts.json) return void io.out(`${JSON.stringify({ ...benchmark, runs }, null, 2)}\n`);
    io.out(
      `benchmark ${benchmark.id}: ${benchmark.name} (parallelism ${benchmark.parallelism})\n` +
        `${table(
          ['task', 'suite', 'version', 'target / client', 'depends on', 'gate'],
          benchmark.tasks.map((t) => [
            t.id,
            t.suite_id ?? '(client)',
            String(t.suite_version),
            t.client_id ? `client ${t.client_id}` : (t.target_id ?? ''),
            t.depends_on.join(', ') || '-',
            t.gate ? `pass rate >= ${pct(t.gate.min_pass_rate)}` : '-',
          ]),
        )}\n` +
        `${table(
          ['run', 'status', 'created', 'completed'],
          runs.map((r) => [r.id, r.status, r.created_at, r.completed_at ?? '-']),
        )}\n`,
    );
  });
  withConnection(
    cmd.command('leaderboard').description("a finished benchmark run's leaderboard").argument('<id>').argument('<run-id>'),
  ).action(async (id: string, runId: string, opts: ConnectionOptions) => {
    const board = await clientFor(opts).request<Leaderboard>('GET', path(id, `/runs/${encodeURIComponent(runId)}/leaderboard`));
    io.out(opts.json ? `${JSON.stringify(board, null, 2)}\n` : leaderboardText(board));
  });
  return cmd;
}
