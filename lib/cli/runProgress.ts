import cliProgress from 'cli-progress';
import Table from 'cli-table3';
import {
  TERMINAL_RUN_STATUSES,
  type Run,
  type RunHealth,
  type RunStats,
  type RunStatus,
  type SloCompliance,
  type TrialStats,
} from '../domain/index.js';
import type { ApiClient } from './apiClient.js';

export type RunView = Run & {
  progress_pct: number;
  stats: RunStats | null;
  trial_stats?: TrialStats;
  health?: RunHealth | null;
  slo_compliance?: SloCompliance[];
};

/**
 * Polls a run until it finishes, drawing a live progress bar on a terminal (plain lines otherwise, e.g. in CI).
 * Returns the final view.
 */
export async function waitForRun(
  api: ApiClient,
  runId: string,
  options: { intervalMs?: number; label?: string; out?: NodeJS.WriteStream; timeoutMs?: number } = {},
): Promise<RunView> {
  const out = options.out ?? process.stderr;
  const interval = options.intervalMs ?? 500;
  const bar = out.isTTY
    ? new cliProgress.SingleBar(
        {
          format: `${options.label ?? runId} [{bar}] {percentage}% | {value}/{total} cases | passed {passed} | {status}`,
          hideCursor: true,
          stream: out,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let started = false;
  let lastLine = '';
  const deadline = Date.now() + (options.timeoutMs ?? 24 * 3600_000);
  try {
    for (;;) {
      const view = await api.request<RunView>('GET', `v1/runs/${encodeURIComponent(runId)}`);
      const done = view.stats?.completed ?? 0;
      const payload = { passed: view.stats?.passed ?? 0, status: view.status };
      if (bar) {
        if (!started && view.total_cases > 0) {
          bar.start(view.total_cases, done, payload);
          started = true;
        } else if (started) bar.update(done, payload);
      } else {
        const line = `${options.label ?? runId}: ${view.status} ${done}/${view.total_cases} (${view.progress_pct.toFixed(0)}%)`;
        if (line !== lastLine) out.write(line + '\n');
        lastLine = line;
      }
      if (TERMINAL_RUN_STATUSES.has(view.status as RunStatus)) {
        if (bar && started) bar.update(done, payload);
        return view;
      }
      if (Date.now() > deadline) return view;
      await new Promise((r) => setTimeout(r, interval));
    }
  } finally {
    bar?.stop();
  }
}

/** No separator lines between rows. */
const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);
const ms = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : `${Math.round(x)} ms`);

const truncate = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** One table comparing runs side by side: outcome, stage pass rates, latency, tokens, cost. */
export function runsTable(runs: Array<{ label: string; view: RunView }>): string {
  const table = new Table({ head: ['', ...runs.map((r) => r.label)], style: { head: [], border: [] }, chars: COMPACT });
  const row = (name: string, f: (s: RunStats | null, v: RunView) => string): void => {
    table.push([name, ...runs.map((r) => f(r.view.stats, r.view))]);
  };
  row('status', (_s, v) => v.status);
  row('priority', (_s, v) => v.config?.priority ?? 'normal');
  if (runs.some((r) => r.view.error)) row('error', (_s, v) => v.error ?? '-');
  row('cases', (s, v) => `${s?.completed ?? 0}/${v.total_cases}`);
  row('pass rate', (s) => (s ? `${pct(s.pass_rate)} of ${s.scored ?? s.completed} scored` : '-'));
  row('not scored (infra)', (s) => (s ? `${pct(s.infrastructure_failure_rate)} (${s.not_scored ?? 0})` : '-'));
  if (runs.some((r) => r.view.trial_stats)) {
    const t = (v: RunView) => v.trial_stats;
    row('trials', (_s, v) => (t(v) ? `${t(v)!.trials} per case (${t(v)!.complete_cases}/${t(v)!.cases} cases complete)` : '1'));
    row('  pass@1 (mean over trials)', (s, v) => pct(t(v)?.pass_at_1 ?? s?.pass_rate));
    row('  pass@k', (_s, v) => (t(v) ? pct(t(v)!.pass_at_k) : '-'));
    row('  pass^k', (_s, v) => (t(v) ? pct(t(v)!.pass_hat_k) : '-'));
    row('  flaky cases', (_s, v) =>
      t(v)
        ? `${t(v)!.flaky_cases}${t(v)!.flaky_case_ids.length ? ` (${t(v)!.flaky_case_ids.slice(0, 5).join(', ')}${t(v)!.flaky_cases > 5 ? ', …' : ''})` : ''}`
        : '-',
    );
  }
  row('mean score', (s) => (s?.mean_score === null || s?.mean_score === undefined ? '-' : s.mean_score.toFixed(3)));
  for (const stage of ['syntax', 'logic', 'execution', 'semantics']) row(`  ${stage}`, (s) => pct(s?.stages[stage]?.pass_rate));
  row('latency p50 / p95', (s) => `${ms(s?.latency_ms.p50)} / ${ms(s?.latency_ms.p95)}`);
  // latency SLOs of the client, one row per category (README "Latency SLOs")
  const categories = [...new Set(runs.flatMap((r) => (r.view.slo_compliance ?? []).map((c) => c.category)))];
  for (const category of categories)
    row(`  SLO ${category}`, (_s, v) => {
      const c = v.slo_compliance?.find((x) => x.category === category);
      if (!c) return '-';
      const status = c.status === 'violated' ? `VIOLATED (${c.severity})` : c.status.replace(/_/g, ' ');
      return `p95 ${ms(c.p95_ms)} vs ${c.target_p95_ms} ms: ${status}`;
    });
  row('tokens in / out', (s) => `${s?.tokens.input ?? 0} / ${s?.tokens.output ?? 0}`);
  row('cost', (s) => `$${(s?.cost_usd ?? 0).toFixed(4)}`);
  row('circuit breaker', (_s, v) =>
    v.health?.circuit
      ? `${v.health.circuit.state}${v.health.circuit.retry_in_ms !== undefined ? ` (probe in ${Math.ceil(v.health.circuit.retry_in_ms / 1000)} s)` : ''}`
      : '-',
  );
  row('deferred / waiting', (_s, v) => (v.health ? `${v.health.deferred} / ${v.health.waiting}` : '-'));
  row('dead letters', (_s, v) => (v.health ? String(v.health.dead_lettered) : '-'));
  row('last error', (_s, v) => truncate(v.health?.last_error ?? v.error ?? '-', 100));
  row(
    'top error codes',
    (s) =>
      Object.entries(s?.error_codes ?? {})
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || '-',
  );
  return table.toString();
}

/** Pass rate per category, one column per run (where a regression sits). */
export function categoryTable(runs: Array<{ label: string; view: RunView }>): string {
  const categories = [...new Set(runs.flatMap((r) => Object.keys(r.view.stats?.by_category ?? {})))].sort();
  const table = new Table({ head: ['category', ...runs.map((r) => r.label)], style: { head: [], border: [] }, chars: COMPACT });
  for (const c of categories) {
    table.push([
      c,
      ...runs.map((r) => {
        const b = r.view.stats?.by_category[c];
        return b && b.completed ? `${((b.passed / b.completed) * 100).toFixed(1)}% of ${b.completed}` : '-';
      }),
    ]);
  }
  return table.toString();
}
