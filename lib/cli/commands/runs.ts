import { Command, Option } from 'commander';
import { ApiClient, apiTargetFrom } from '../apiClient.js';
import { runsTable, waitForRun, type RunView } from '../runProgress.js';
import { CliError } from '../cliError.js';
import { readRunConfig } from './runConfigFile.js';
import { submitSettings } from './submitSettings.js';
import { checkedQuery, submitBatchFile } from './submitSources.js';
import { parseSampleOption, parseSuiteVersionOption } from './sampleOption.js';

interface ConnOpts {
  url?: string;
  key?: string;
}

const withConnection = (cmd: Command): Command =>
  cmd
    .option('--url <url>', 'platform URL (env EVALP_URL, default http://127.0.0.1:7071)')
    .option('--key <key>', 'API key (env EVALP_API_KEY)');

export function submitCommand(): Command {
  return withConnection(
    new Command('submit')
      .description('trigger a run (POST /api/v1/runs) and optionally wait for it with a progress bar')
      .option('--suite <id>', 'test suite id')
      .option(
        '--batch-file <file>',
        'evaluate the cases of this file (JSON, JSON Lines, CSV) as an ad-hoc suite, not added to the gold set',
      )
      .option('--query <query>', 'evaluate the gold-set cases matching a query, e.g. "complexity_level>=4 AND tags:search" (docs/api.md)')
      .option('--target <id>', 'target system id')
      .option('--client <id>', 'client id (its suite and target unless given)')
      .addOption(new Option('--profile <profile>', 'stage profile').choices(['ci', 'nightly', 'release']))
      .option(
        '--config <file>',
        "the run's evaluation config (JSON: profile, coercion, execution, semantics, weights); --profile overrides its profile",
      )
      .option('--commit-sha <sha>', 'trigger metadata: commit sha')
      .option('--pr <number>', 'trigger metadata: pull request number')
      .option('--baseline <runId>', 'baseline run to compare with')
      .option('--suite-version <n>', 'a published suite version, "latest" (default: the newest, else live) or "live"')
      .option(
        '--sample <spec>',
        'evaluate a seeded sample: 200 | 0.1 | 0.1:category | 300:tag:equal (stratify by category, complexity or tag)',
      )
      .option('--seed <n>', 'seed of --sample (default 42): the same seed draws the same cases')
      .addOption(new Option('--judge <kind>', 'stage-4 judge (env EVALP_JUDGE, config judge.kind)').choices(['local', 'openai']))
      .option('--judge-model <model>', 'judge model (env EVALP_JUDGE_MODEL, config judge.model)')
      .addOption(
        new Option(
          '--priority <priority>',
          'queue priority: high runs are processed before normal and low ones sharing the workers',
        ).choices(['high', 'normal', 'low']),
      )
      .option('--wait', 'wait for the run to finish and print its summary'),
  ).action(
    async (
      opts: ConnOpts & {
        suite?: string;
        batchFile?: string;
        query?: string;
        target?: string;
        client?: string;
        profile?: string;
        config?: string;
        commitSha?: string;
        pr?: string;
        baseline?: string;
        suiteVersion?: string;
        sample?: string;
        seed?: string;
        priority?: string;
        wait?: boolean;
        judge?: string;
        judgeModel?: string;
      },
    ) => {
      // --profile here is the stage profile (ci/nightly/release), not a connection profile of the config file
      const api = new ApiClient(apiTargetFrom({ url: opts.url, key: opts.key }));
      const fileConfig = opts.config ? await readRunConfig(opts.config) : undefined;
      const sample = opts.sample ? parseSampleOption(opts.sample, opts.seed) : undefined;
      // profile and judge: environment > flags > evalplatform.config.yaml (clients.<id> first) > the platform's defaults
      const settings = submitSettings(opts);
      const config =
        fileConfig || settings.profile || settings.semantics || sample
          ? {
              ...fileConfig,
              ...(settings.profile ? { profile: settings.profile } : {}),
              ...(settings.semantics ? { semantics: { ...(fileConfig?.semantics as object | undefined), ...settings.semantics } } : {}),
              ...(sample ? { sample } : {}),
            }
          : undefined;
      if ([opts.suite, opts.batchFile, opts.query].filter(Boolean).length > 1)
        throw new CliError('give one of --suite, --batch-file and --query');
      const query = opts.query !== undefined ? checkedQuery(opts.query) : undefined;
      const batch = opts.batchFile ? await submitBatchFile(api, opts.batchFile) : undefined;
      if (batch) process.stderr.write(`evalp: ad-hoc suite ${batch.suite.id} (${batch.version.case_count} cases of ${opts.batchFile})\n`);
      const pr = opts.pr === undefined ? undefined : Number(opts.pr);
      if (pr !== undefined && (!Number.isInteger(pr) || pr <= 0)) throw new CliError('--pr must be a positive integer');
      const run = await api.request<RunView>('POST', 'v1/runs', {
        ...(opts.suite ? { suite_id: opts.suite } : {}),
        ...(batch ? { suite_id: batch.suite.id, suite_version: batch.version.version } : {}),
        ...(query ? { query } : {}),
        ...(opts.target ? { target_id: opts.target } : {}),
        ...(opts.client ? { client_id: opts.client } : {}),
        triggered_by: process.env.GITHUB_ACTIONS ? 'github' : 'cli',
        trigger_metadata: {
          ...(batch ? { batch_file: batch.suite.adhoc?.source ?? opts.batchFile } : {}),
          ...(opts.commitSha ? { commit_sha: opts.commitSha } : {}),
          ...(pr ? { pr_number: pr } : {}),
        },
        ...(config ? { config } : {}),
        ...(opts.baseline ? { baseline_run_id: opts.baseline } : {}),
        ...(opts.suiteVersion && !batch ? { suite_version: parseSuiteVersionOption(opts.suiteVersion) } : {}),
        ...(opts.priority ? { priority: opts.priority } : {}),
      });
      process.stdout.write(`${run.id}\n`);
      if (opts.wait) {
        const view = await waitForRun(api, run.id);
        process.stderr.write(runsTable([{ label: run.id, view }]) + '\n');
        // as `evalp wait`: 3 when the run failed, was cancelled or timed out
        if (view.status !== 'completed') process.exitCode = 3;
      }
    },
  );
}

export function statusCommand(): Command {
  return withConnection(
    new Command('status')
      .description('show a run (GET /api/v1/runs/{id}); --watch follows it with a live progress bar')
      .argument('<runId>')
      .option('--watch', 'follow until the run finishes')
      .option('--json', 'print the run as JSON'),
  ).action(async (runId: string, opts: ConnOpts & { watch?: boolean; json?: boolean }) => {
    const api = new ApiClient(apiTargetFrom(opts));
    const view = opts.watch ? await waitForRun(api, runId) : await api.request<RunView>('GET', `v1/runs/${encodeURIComponent(runId)}`);
    process.stdout.write(opts.json ? JSON.stringify(view, null, 2) + '\n' : runsTable([{ label: runId, view }]) + '\n');
  });
}
