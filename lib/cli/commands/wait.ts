import { Command } from 'commander';
import { ALERT_SEVERITIES, atLeastSeverity, TERMINAL_RUN_STATUSES, type Alert, type RunStatus } from '../../domain/index.js';
import { ApiClient, apiTargetFrom } from '../apiClient.js';
import { CliError } from '../cliError.js';
import { cliSettings } from '../cliConfig.js';
import { runsTable, waitForRun } from '../runProgress.js';
import { parseDuration, usageErrorsExit2 } from './cliOptions.js';

/** `evalp wait` exit codes (what the GitHub action and any CI script act on). */
export const WAIT_EXIT = {
  /** the run completed with no open alert at or above --fail-on */
  ok: 0,
  /** the run completed with an open alert at or above --fail-on */
  regression: 1,
  /** bad flags, unknown run, no key, platform unreachable (main.ts exits 2 for a CliError) */
  usage: 2,
  /** the run failed, was cancelled, timed out, or did not finish within --timeout */
  runNotCompleted: 3,
} as const;

/** the lowest severity that fails, or never; `warning` is the level from before low/medium/high/critical: any alert */
export const FAIL_ON_LEVELS = [...ALERT_SEVERITIES, 'never', 'warning'] as const;
export type FailOn = (typeof FAIL_ON_LEVELS)[number];

/** Open alerts at or above the level (acknowledged alerts were accepted by a person and never fail the gate). */
export function blockingAlerts(alerts: readonly Alert[], failOn: FailOn): Alert[] {
  if (failOn === 'never') return [];
  const minimum = failOn === 'warning' ? 'low' : failOn;
  return alerts.filter((a) => a.status !== 'acknowledged' && atLeastSeverity(a.severity, minimum));
}

interface WaitOptions {
  failOn?: string;
  timeout?: string;
  interval: string;
  json?: boolean;
  url?: string;
  key?: string;
}

export function waitCommand(): Command {
  return usageErrorsExit2(
    new Command('wait')
      .description(
        'wait for a run with progress, then fail on a regression alert: exit 0 ok, 1 regression at/above --fail-on, 2 usage or configuration error, 3 run failed, cancelled or timed out',
      )
      .argument('<runId>', 'the run to wait for')
      .option(
        '--fail-on <level>',
        'low | medium | high | critical | never: the lowest alert severity that fails (exit 1; warning = low, any alert; default high; env EVALP_FAIL_ON)',
      )
      .option('--timeout <duration>', 'stop waiting after this long (e.g. 90s, 30m, 2h; a bare number is seconds): exit 3')
      .option('--interval <ms>', 'poll interval in milliseconds', '1000')
      .option('--json', 'print the outcome as JSON on stdout')
      .option('--url <url>', 'platform URL (env EVALP_URL, default http://127.0.0.1:7071)')
      .option('--key <key>', 'API key (env EVALP_API_KEY)'),
  ).action(async (runId: string, opts: WaitOptions) => {
    process.exitCode = await runWait(runId, opts);
  });
}

async function runWait(runId: string, opts: WaitOptions): Promise<number> {
  // environment (EVALP_FAIL_ON) > --fail-on > evalplatform.config.yaml thresholds.fail_on > high
  const settings = cliSettings({ flags: { '--fail-on': opts.failOn } });
  const failOn = String(settings.get('thresholds.fail_on')) as FailOn;
  if (!FAIL_ON_LEVELS.includes(failOn))
    throw new CliError(
      `--fail-on must be one of ${FAIL_ON_LEVELS.join(', ')} (got "${failOn}")${settings.sourceOf('thresholds.fail_on') === 'flag --fail-on' ? '' : ` from ${settings.sourceOf('thresholds.fail_on')}`}`,
    );
  const timeoutMs = opts.timeout === undefined ? undefined : parseDuration(opts.timeout, '--timeout');
  const intervalMs = Number(opts.interval);
  if (!Number.isInteger(intervalMs) || intervalMs < 10)
    throw new CliError('--interval must be a whole number of milliseconds, at least 10');
  const api = new ApiClient(apiTargetFrom(opts));
  const view = await waitForRun(api, runId, { intervalMs, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  process.stderr.write(runsTable([{ label: runId, view }]) + '\n');
  const finished = TERMINAL_RUN_STATUSES.has(view.status as RunStatus);
  let alerts: Alert[] = [];
  let code: number;
  let verdict: string;
  if (view.status !== 'completed') {
    code = WAIT_EXIT.runNotCompleted;
    verdict = finished
      ? `run ${runId} ${view.status}${view.error ? `: ${view.error}` : ''}`
      : `run ${runId} still ${view.status} after ${opts.timeout}`;
  } else {
    alerts = await listRunAlerts(api, runId);
    const blocking = blockingAlerts(alerts, failOn);
    code = blocking.length ? WAIT_EXIT.regression : WAIT_EXIT.ok;
    verdict = blocking.length
      ? `regression: ${blocking.length} alert(s) at or above ${failOn}`
      : `ok: no open regression alert at or above ${failOn}${alerts.length ? ` (${alerts.length} alert(s) below it or acknowledged)` : ''}`;
  }
  for (const a of alerts) process.stderr.write(`${a.severity} ${a.metric} (${a.status}): ${a.message}\n`);
  process.stderr.write(`evalp wait: ${verdict} (exit ${code})\n`);
  if (opts.json)
    process.stdout.write(
      JSON.stringify({ run_id: runId, status: view.status, fail_on: failOn, exit_code: code, verdict, alerts }, null, 2) + '\n',
    );
  return code;
}

/** Every alert of a run (GET /api/v1/alerts?run_id=..., all pages). */
export async function listRunAlerts(api: ApiClient, runId: string): Promise<Alert[]> {
  const alerts: Alert[] = [];
  for (let offset = 0; ;) {
    const page = await api.request<{ items: Alert[]; has_more: boolean }>(
      'GET',
      `v1/alerts?run_id=${encodeURIComponent(runId)}&limit=1000&offset=${offset}`,
    );
    alerts.push(...page.items);
    if (!page.has_more || page.items.length === 0) return alerts;
    offset += page.items.length;
  }
}
