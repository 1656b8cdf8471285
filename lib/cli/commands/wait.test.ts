import { storedRunOf } from '../../ports/contracts/fixtures.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertId, type Alert, type AlertSeverity, type Run, type RunStats } from '../../domain/index.js';
import { startRetailPlatform, type RetailPlatform } from '../../reports/testing/retailPlatform.test-helpers.js';
import { runCliInProcess, runCliProcess } from './cliRunner.test-helpers.js';
import { blockingAlerts, WAIT_EXIT } from './wait.js';

let retail: RetailPlatform;
let base: Run & { stats: RunStats };
let head: Run & { stats: RunStats };

beforeAll(async () => {
  retail = await startRetailPlatform();
  base = await retail.runModel('simulated-model-a', { branch: 'main' });
  head = await retail.runModel('simulated-model-b', { branch: 'feature' });
});
afterAll(async () => retail?.stop());

const conn = (): string[] => ['--url', retail.url, '--key', retail.key, '--interval', '20'];

function alertOf(run: Run, severity: AlertSeverity, extra: Partial<Alert> = {}): Alert {
  const now = new Date().toISOString();
  return {
    id: alertId(run.id, 'accuracy'),
    run_id: run.id,
    baseline_run_id: base.id,
    client_id: null,
    suite_id: run.suite_id,
    target_id: run.target_id,
    metric: 'accuracy',
    severity,
    previous: 0.878,
    current: 0.832,
    change: -4.6,
    change_unit: 'points',
    threshold: severity === 'critical' ? -5 : -2,
    p_value: 0.03,
    test: 'exact McNemar',
    affected_categories: [],
    message: `accuracy ${severity}`,
    live: false,
    paired_cases: 327,
    status: 'open',
    created_at: now,
    updated_at: now,
    acknowledged_at: null,
    acknowledged_by: null,
    delivery: { status: 'none', attempts: 0, last_error: null, delivered_at: null },
    ...extra,
  };
}

async function withAlert<T>(alert: Alert, fn: () => Promise<T>): Promise<T> {
  await retail.platform.services.stores.alerts.upsertAlert(alert);
  try {
    return await fn();
  } finally {
    await retail.platform.services.stores.alerts.deleteAlert(alert.id);
  }
}

async function storedRun(status: Run['status'], id: string): Promise<string> {
  const run = storedRunOf(head);
  await retail.platform.services.stores.runs.createRun({
    ...run,
    id,
    status,
    error: status === 'failed' ? 'the target was unreachable' : null,
    completed_at: null,
  });
  return id;
}

describe('evalp wait exit codes against a real embedded platform', () => {
  it('0 for a completed run without alerts, with the outcome as JSON', async () => {
    const r = await runCliInProcess(['wait', head.id, '--fail-on', 'critical', '--json', ...conn()]);
    expect(r.code).toBe(WAIT_EXIT.ok);
    expect(JSON.parse(r.stdout)).toEqual({
      run_id: head.id,
      status: 'completed',
      fail_on: 'critical',
      exit_code: 0,
      verdict: 'ok: no open regression alert at or above critical',
      alerts: [],
    });
    expect(r.stderr).toContain(`${head.id}: completed 327/327 (100%)`);
  });

  it.each([
    ['critical', 'critical', 'open', WAIT_EXIT.regression],
    ['critical', 'low', 'open', WAIT_EXIT.regression],
    ['critical', 'never', 'open', WAIT_EXIT.ok],
    ['medium', 'high', 'open', WAIT_EXIT.ok],
    ['medium', 'medium', 'open', WAIT_EXIT.regression],
    ['low', 'warning', 'open', WAIT_EXIT.regression],
    ['high', 'critical', 'open', WAIT_EXIT.ok],
    ['critical', 'critical', 'acknowledged', WAIT_EXIT.ok],
  ] as const)('a %s alert with --fail-on %s (%s) exits %i', async (severity, failOn, status, code) => {
    const alert = alertOf(
      head,
      severity,
      status === 'acknowledged' ? { status, acknowledged_at: new Date().toISOString(), acknowledged_by: 'lead' } : {},
    );
    const r = await withAlert(alert, () => runCliInProcess(['wait', head.id, '--fail-on', failOn, ...conn()]));
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(`${severity} accuracy (${status}): accuracy ${severity}`);
    expect(r.stderr).toMatch(new RegExp(`evalp wait: (ok|regression): .* \\(exit ${code}\\)`));
  });

  it('1 from a real detection: model B against model A as its baseline raises a high alert (fails at the default --fail-on high)', async () => {
    const run = await retail.runModel('simulated-model-b', { branch: 'feature' }, { baseline_run_id: base.id });
    const r = await runCliInProcess(['wait', run.id, '--json', ...conn()]);
    const outcome = JSON.parse(r.stdout) as { exit_code: number; alerts: Alert[] };
    expect([r.code, outcome.exit_code]).toEqual([1, 1]);
    expect(outcome.alerts.find((a) => a.metric === 'accuracy')).toMatchObject({
      severity: 'high',
      baseline_run_id: base.id,
      affected_categories: [expect.objectContaining({ category: 'refunds' })],
    });
  });

  it('3 for a failed run, and for a run still running at --timeout', async () => {
    const failed = await runCliInProcess(['wait', await storedRun('failed', 'wait-failed'), ...conn()]);
    expect([failed.code, failed.stderr]).toEqual([
      WAIT_EXIT.runNotCompleted,
      expect.stringContaining('evalp wait: run wait-failed failed: the target was unreachable (exit 3)'),
    ]);
    const stuck = await runCliInProcess(['wait', await storedRun('running', 'wait-stuck'), '--timeout', '300ms', ...conn()]);
    expect([stuck.code, stuck.stderr]).toEqual([
      WAIT_EXIT.runNotCompleted,
      expect.stringContaining('evalp wait: run wait-stuck still running after 300ms (exit 3)'),
    ]);
  });

  it.each([
    [['--fail-on', 'major'], '--fail-on must be one of low, medium, high, critical, never, warning (got "major")'],
    [['--timeout', 'soon'], '--timeout must be a duration such as 90s, 30m or 2h (got "soon")'],
    [['--bogus'], "unknown option '--bogus'"],
  ])('2 for a usage error: %j', async (flags, message) => {
    const r = await runCliInProcess(['wait', head.id, ...flags, ...conn()]);
    expect([r.code, r.stderr]).toEqual([WAIT_EXIT.usage, `evalp: ${message}\n`]);
  });

  it('2 for an unknown run or a rejected key', async () => {
    const unknown = await runCliInProcess(['wait', 'no-such-run', ...conn()]);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('answered 404: run "no-such-run" does not exist')]);
    const badKey = await runCliInProcess([
      'wait',
      head.id,
      '--url',
      retail.url,
      '--key',
      'evalp_000000000000_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    ]);
    expect([badKey.code, badKey.stderr]).toEqual([2, expect.stringContaining('answered 401')]);
  });

  it('the process exit code is the same as a child process (1 on a critical alert, 2 on a missing argument)', async () => {
    const env = { EVALP_URL: retail.url, EVALP_API_KEY: retail.key };
    const [regression, usage] = await withAlert(alertOf(head, 'critical'), () =>
      Promise.all([runCliProcess(['wait', head.id, '--fail-on', 'critical'], env), runCliProcess(['wait'], env)]),
    );
    expect([regression.code, regression.stderr]).toEqual([
      1,
      expect.stringContaining('evalp wait: regression: 1 alert(s) at or above critical (exit 1)'),
    ]);
    expect([usage.code, usage.stderr]).toEqual([2, "evalp: missing required argument 'runId'\n"]);
  }, 30_000);

  it('blockingAlerts: the level and acknowledgement decide', () => {
    const critical = alertOf(head, 'critical');
    const medium = { ...alertOf(head, 'medium'), id: 'w' };
    expect([
      blockingAlerts([critical, medium], 'critical'),
      blockingAlerts([critical, medium], 'high'),
      blockingAlerts([critical, medium], 'medium'),
      blockingAlerts([critical, medium], 'warning'),
      blockingAlerts([critical], 'never'),
    ]).toEqual([[critical], [critical], [critical, medium], [critical, medium], []]);
  });
});
