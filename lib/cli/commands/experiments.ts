import { Command } from 'commander';
import type { Experiment, ExperimentResults } from '../../domain/index.js';
import { waitForRun } from '../runProgress.js';
import { addCreateFromFileCommand, addListCommand, itemPath } from './definitionCommands.js';
import { fixedText as num, intervalText as interval, pctText as pct } from './metricText.js';
import { clientFor, processIO, table, withConnection, type CommandIO, type ConnectionOptions } from './resourceCommands.js';

const path = itemPath('v1/experiments');
const pts = (x: number | null | undefined): string =>
  x === null || x === undefined ? 'n/a' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;

/** The results as text: per-variant metrics, each variant against the control, guardrails, verdict, recommendation. */
export function resultsText(r: ExperimentResults): string {
  const lines = [
    `experiment ${r.experiment_id} (${r.status}, ${r.method}, alpha ${r.alpha}, minimum sample ${r.minimum_sample_size} paired cases${r.runs_complete ? '' : ', runs still going'})`,
    table(
      ['variant', 'run', 'scored', 'passed', 'pass rate [95% interval]', 'latency ms (mean)', 'cost USD (mean)'],
      r.variants.map((v) => [
        v.control ? `${v.name} (control)` : v.name,
        v.run_id ?? '-',
        String(v.scored),
        String(v.passed),
        interval(v.pass_rate, pct),
        interval(v.latency_ms, (x) => num(x, 0)),
        interval(v.cost_usd, (x) => num(x, 5)),
      ]),
    ),
  ];
  const diff = (x: number | null): string =>
    r.primary_metric === 'pass_rate'
      ? pts(x)
      : x === null
        ? 'n/a'
        : `${x >= 0 ? '+' : ''}${x.toFixed(r.primary_metric === 'latency_ms' ? 0 : 5)}`;
  const unit = r.primary_metric === 'pass_rate' ? 'points' : r.primary_metric === 'latency_ms' ? 'ms' : 'USD';
  for (const c of r.comparisons) {
    const test =
      r.method === 'bayesian'
        ? `P(better) ${num(c.probability_of_improvement, 3)}, expected loss ${pts(c.expected_loss)} points`
        : `${r.method === 'sequential' ? 'always-valid p' : r.primary_metric === 'pass_rate' ? 'McNemar p' : 'paired t p'} ${num(c.p_value, 4)} (Holm ${num(c.adjusted_p_value, 4)})`;
    lines.push(
      `${c.variant} vs control: ${r.primary_metric} ${diff(c.difference.estimate)} ${unit} [${diff(c.difference.lower)}, ${diff(c.difference.upper)}] on ${c.paired_cases} paired cases ` +
        `(${c.variant_only} passed only under ${c.variant}, ${c.control_only} only under control); ${c.effect_size.name === 'cohens_h' ? "Cohen's h" : "Cohen's d"} ${num(c.effect_size.value, 3)}; ` +
        `${test}; ${c.decidable ? c.decision : 'not decidable yet'}`,
    );
    for (const g of c.guardrails)
      lines.push(
        `  guardrail ${g.metric} (at most ${g.metric === 'pass_rate' ? `${(g.max_degradation * 100).toFixed(1)} points` : `${(g.max_degradation * 100).toFixed(0)}%`} worse): ${g.status}` +
          (g.degradation ? `, degradation ${interval(g.degradation, g.metric === 'pass_rate' ? pts : pct)}` : ''),
      );
  }
  lines.push(`winner: ${r.winner ?? (r.verdict === 'no_winner' ? 'none' : 'no winner yet')}`, `recommendation: ${r.recommendation}`);
  return `${lines.join('\n')}\n`;
}

/** `evalp experiments list|show|create --file|start [--wait]|results|conclude`. */
export function experimentsCommand(io: CommandIO = processIO): Command {
  const cmd = new Command('experiments').description('A/B experiments: variants on one pinned suite version, a primary metric, guardrails');
  addListCommand<Experiment>(cmd, io, {
    collection: 'v1/experiments',
    description: 'list experiments',
    head: ['id', 'name', 'status', 'method', 'variants', 'created'],
    row: (e) => [e.id, e.name, e.status, e.method, e.variants.map((v) => v.name).join(', '), e.created_at],
  });
  withConnection(cmd.command('show').description('one experiment as JSON').argument('<id>')).action(
    async (id: string, opts: ConnectionOptions) => {
      io.out(`${JSON.stringify(await clientFor(opts).request<Experiment>('GET', path(id)), null, 2)}\n`);
    },
  );
  addCreateFromFileCommand<Experiment>(cmd, io, {
    collection: 'v1/experiments',
    noun: 'experiment',
    description: 'create a draft experiment from a JSON file (the body of POST /api/v1/experiments; "-" reads stdin)',
    created: (e) =>
      `created experiment ${e.id} (draft, ${e.method}, ${e.variants.length} variants); ${e.minimum_sample_size} paired cases give ${Math.round(e.power * 100)}% power for ${(e.minimum_detectable_effect * 100).toFixed(1)} points at alpha ${e.alpha}`,
  });
  withConnection(
    cmd
      .command('start')
      .description('pin the suite version and start one run per variant')
      .argument('<id>')
      .option('--wait', 'wait for every variant run to finish'),
  ).action(async (id: string, opts: ConnectionOptions & { wait?: boolean }) => {
    const api = clientFor(opts);
    const e = await api.request<Experiment>('POST', path(id, '/start'));
    if (opts.wait) for (const [variant, runId] of Object.entries(e.runs)) await waitForRun(api, runId, { label: variant });
    if (opts.json) return void io.out(`${JSON.stringify(e, null, 2)}\n`);
    io.out(
      `started experiment ${e.id} on suite ${e.suite_id} version ${e.pinned_suite_version}${opts.wait ? ' (runs finished)' : ''}\n` +
        `${table(
          ['variant', 'run'],
          Object.entries(e.runs).map(([v, r]) => [v, r]),
        )}\n`,
    );
  });
  withConnection(
    cmd.command('results').description('per-variant metrics, the comparison, guardrails, winner and recommendation').argument('<id>'),
  ).action(async (id: string, opts: ConnectionOptions) => {
    const r = await clientFor(opts).request<ExperimentResults>('GET', path(id, '/results'));
    io.out(opts.json ? `${JSON.stringify(r, null, 2)}\n` : resultsText(r));
  });
  withConnection(cmd.command('conclude').description('freeze the results as they stand').argument('<id>')).action(
    async (id: string, opts: ConnectionOptions) => {
      const e = await clientFor(opts).request<Experiment>('POST', path(id, '/conclude'));
      if (opts.json) return void io.out(`${JSON.stringify(e, null, 2)}\n`);
      io.out(`concluded experiment ${e.id}: winner ${e.conclusion?.winner ?? 'none'}\n${e.conclusion?.recommendation ?? ''}\n`);
    },
  );
  return cmd;
}
