import { Command } from 'commander';
import { ApiClient, apiTargetFrom } from '../apiClient.js';
import { runsTable, waitForRun, type RunView } from '../runProgress.js';

/**
 * `evalp replay RUN [--only-failed] [--wait]`: runs a finished run again as a new run, its baseline the original.
 * `--only-failed` takes only its failed cases (`POST /api/v1/runs/{id}/retry-failures`: the original run is left as
 * it was); without it the whole suite runs again on the same target, client, frozen config and suite version
 * (`POST /api/v1/runs`). Prints the new run's id; `--wait` follows it and exits 3 when it does not complete.
 */
export function replayCommand(): Command {
  return new Command('replay')
    .description('run a finished run again as a new run (baseline: the original); --only-failed takes only its failed cases')
    .argument('<runId>')
    .option('--only-failed', 'only the failed cases (POST /api/v1/runs/{id}/retry-failures)')
    .option('--wait', 'wait for the new run to finish and print its summary')
    .option('--url <url>', 'platform URL (env EVALP_URL, default http://127.0.0.1:7071)')
    .option('--key <key>', 'API key (env EVALP_API_KEY)')
    .action(async (runId: string, opts: { onlyFailed?: boolean; wait?: boolean; url?: string; key?: string }) => {
      const api = new ApiClient(apiTargetFrom({ url: opts.url, key: opts.key }));
      const trigger_metadata = { replay_of: runId };
      const run = opts.onlyFailed
        ? await api.request<RunView>('POST', `v1/runs/${encodeURIComponent(runId)}/retry-failures`, { trigger_metadata })
        : await replayWhole(api, runId, trigger_metadata);
      process.stdout.write(`${run.id}\n`);
      process.stderr.write(`replay of ${runId}: run ${run.id}${opts.onlyFailed ? ' of its failed cases' : ''}, baseline ${runId}\n`);
      if (opts.wait) {
        const view = await waitForRun(api, run.id);
        process.stderr.write(runsTable([{ label: run.id, view }]) + '\n');
        if (view.status !== 'completed') process.exitCode = 3;
      }
    });
}

async function replayWhole(api: ApiClient, runId: string, trigger_metadata: Record<string, string>): Promise<RunView> {
  const parent = await api.request<RunView>('GET', `v1/runs/${encodeURIComponent(runId)}`);
  return api.request<RunView>('POST', 'v1/runs', {
    suite_id: parent.suite_id,
    target_id: parent.target_id,
    ...(parent.client_id ? { client_id: parent.client_id } : {}),
    triggered_by: 'retry',
    trigger_metadata,
    config: parent.config,
    // the same cases: the suite version the original pinned, or live when it ran on the live suite
    suite_version: parent.suite_version ?? 'live',
    baseline_run_id: parent.id,
  });
}
