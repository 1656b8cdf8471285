import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEMO_SUITE_ID, DEMO_TARGETS, demoRunConfig, loadRetailSample, packageRoot, platformEnvFromFile } from '../../app/index.js';
import { readCliConfig } from '../cliConfig.js';
import { Command } from 'commander';
import { createApiKey, localKeyAuditRecord } from '../../api/index.js';
import { type Alert, type Comparison, ROLES } from '../../domain/index.js';
import { localActor } from './keysLocal.js';
import { createConsoleLogger, installSignalHandlers } from '../../host/index.js';
import { ApiClient } from '../apiClient.js';
import { categoryTable, runsTable, waitForRun, type RunView } from '../runProgress.js';
import { CliError } from '../cliError.js';
import type { Page } from '../../ports/index.js';
import { renderComparison } from './compareTables.js';

const SAMPLE_DIR = join(packageRoot(), 'examples', 'retail');

export function startCommand(): Command {
  return new Command('start')
    .description('run the platform on this machine (embedded host: SQLite, in-process queues and task hub) with a demo evaluation')
    .option('--data-dir <dir>', 'state directory (env EVALP_DATA_DIR)', process.env.EVALP_DATA_DIR ?? '.evalplatform')
    .option('--port <port>', 'HTTP port (env EVALP_PORT)', process.env.EVALP_PORT ?? '7071')
    .option('--no-demo', 'start without the demo run (env EVALP_DEMO=off)')
    .action(async (opts: { dataDir: string; port: string; demo: boolean }) => {
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be 0-65535, got ${opts.port}`);
      // evalplatform.config.yaml: the platform's settings it holds (judge credentials, e-mail, public URL, webhook
      // retries) apply where the environment does not set them (environment variables win)
      const configFile = readCliConfig();
      const fromFile = platformEnvFromFile(configFile);
      Object.assign(process.env, fromFile);
      if (configFile && Object.keys(fromFile).length > 0)
        process.stderr.write(`evalp: settings from ${configFile.path}: ${Object.keys(fromFile).join(', ')}\n`);
      const demo = opts.demo && (process.env.EVALP_DEMO ?? 'on').toLowerCase() !== 'off';
      const log = (line: string): void => void process.stdout.write(line + '\n');
      // loaded on demand: `evalp evaluate` and the client commands never load the host
      const { startEmbeddedPlatform } = await import('../../platform/index.js');
      const platform = await startEmbeddedPlatform({ dataDir: resolve(opts.dataDir), port, logger: quietLogger() });
      installSignalHandlers(platform.host);
      log(`EvalPlatform is running at ${platform.url}/api  (state in ${resolve(opts.dataDir)})`);
      const { apiKeys, clock } = platform.services;
      if ((await apiKeys.countApiKeys()) === 0) {
        const { key, record } = await createApiKey(apiKeys, { name: 'admin', roles: [...ROLES] }, clock);
        await platform.services.stores.audit.createAuditRecord(
          localKeyAuditRecord({ actor: localActor(), action: 'create', keyId: record.id, at: record.created_at }),
        );
        log('\nFirst start: an admin API key was created. It is shown only this once; keep it:\n');
        log(key);
        log('\nUse it as `Authorization: Bearer <key>` (or EVALP_API_KEY for the evalp CLI).\n');
      }
      if (demo) await runDemo(platform.url, platform.services, log);
      log(`\nDashboard: ${platform.url}/  (sign in with an API key)`);
      log(`Serving at ${platform.url}/api (health: ${platform.url}/api/health). Ctrl-C stops.`);
    });
}

async function runDemo(url: string, services: Parameters<typeof loadRetailSample>[0], log: (l: string) => void): Promise<void> {
  if (!existsSync(SAMPLE_DIR)) throw new CliError(`the bundled sample is missing at ${SAMPLE_DIR}`);
  const loaded = await loadRetailSample(services, SAMPLE_DIR);
  log(`Demo: loaded ${loaded.cases} retail gold cases, catalog ${loaded.catalogId}, two recorded models.`);
  const { key, record } = await createApiKey(
    services.apiKeys,
    { name: `demo-${process.pid}`, roles: ['reader', 'runner'] },
    services.clock,
  );
  const audit = (action: 'create' | 'revoke', at: string) =>
    services.stores.audit.createAuditRecord(localKeyAuditRecord({ actor: localActor(), action, keyId: record.id, at }));
  await audit('create', record.created_at);
  const api = new ApiClient({ url, key });
  try {
    const views: Array<{ label: string; view: RunView }> = [];
    for (const target of DEMO_TARGETS) {
      // model B is checked against model A's run: the regression alerts a nightly run would raise
      const baseline = views[0]?.view.status === 'completed' ? { baseline_run_id: views[0].view.id } : {};
      const run = await api.request<RunView>('POST', 'v1/runs', {
        suite_id: DEMO_SUITE_ID,
        target_id: target.id,
        triggered_by: 'demo',
        config: demoRunConfig(SAMPLE_DIR),
        ...baseline,
      });
      log(`Demo run ${run.id}: ${target.name}`);
      views.push({ label: target.id, view: await waitForRun(api, run.id, { label: target.id, out: process.stdout }) });
    }
    log('\n' + runsTable(views));
    log('\nPass rate by category:\n' + categoryTable(views));
    const [a, b] = views;
    if (a && b && a.view.status === 'completed' && b.view.status === 'completed') {
      const comparison = await api.request<Comparison>('POST', 'v1/compare', { run_ids: [a.view.id, b.view.id] });
      log(`\nComparison of the two models (evalp compare ${a.view.id} ${b.view.id}):\n`);
      log(renderComparison(comparison));
      const alerts = await api.request<Page<Alert>>('GET', `v1/alerts?run_id=${encodeURIComponent(b.view.id)}`);
      log(`\nRegression alerts of ${b.view.id} against ${a.view.id} (GET /api/v1/alerts?run_id=${b.view.id}):`);
      for (const alert of alerts.items) log(`  ${alert.severity.toUpperCase().padEnd(8)} ${alert.message}`);
      if (alerts.items.length === 0) log('  none');
    }
  } finally {
    const at = services.clock.now().toISOString();
    await services.apiKeys.revokeApiKey(record.id, at);
    await audit('revoke', at);
  }
}

/** Warnings and errors as JSON lines on stderr (EVALP_LOG_LEVEL=information for more); stdout stays for people. */
function quietLogger() {
  const level = (process.env.EVALP_LOG_LEVEL ?? 'warning') as Parameters<typeof createConsoleLogger>[0];
  return createConsoleLogger(level);
}
