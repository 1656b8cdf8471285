import { Command } from 'commander';
import type { Comparison, PairwiseComparison, Run } from '../../domain/index.js';
import { comparisonWarnings } from './compareWarnings.js';
import { ApiClient, apiTargetFrom } from '../apiClient.js';
import { CliError } from '../cliError.js';
import { renderComparison } from './compareTables.js';

/**
 * `evalp compare A B [C ...]`: POST /api/v1/compare and print the comparison as tables (or `--json`). The first
 * run is the reference. Exits 0 whether or not the runs differ (use `evalp wait --fail-on` to gate on regressions).
 */
export function compareCommand(
  out: { write(text: string): unknown } = process.stdout,
  err: { write(text: string): unknown } = process.stderr,
): Command {
  return new Command('compare')
    .description('compare runs with paired statistics (the first is the reference): POST /api/v1/compare')
    .argument('<runIds...>', '2 to 10 run ids, the reference first')
    .option('--json', 'print the Comparison as JSON')
    .option('--pairwise', 'ask an LLM for pairwise verdicts on the shared cases of two runs (both orders; POST /api/v1/compare/pairwise)')
    .option('--model <model>', 'pairwise judge model (default: the judge settings of the platform)')
    .option('--seed <n>', 'seed of the bootstrap and Monte Carlo draws (default 42)')
    .option('--confidence <level>', 'interval level, e.g. 0.95 (default)')
    .option('--max-flipped <n>', 'flipped cases listed per direction (default 200)')
    .option('--show-flipped <n>', 'flipped cases printed per direction in the table output', '5')
    .option('--url <url>', 'platform URL (env EVALP_URL, default http://127.0.0.1:7071)')
    .option('--key <key>', 'API key (env EVALP_API_KEY)')
    .action(
      async (
        runIds: string[],
        opts: {
          json?: boolean;
          pairwise?: boolean;
          model?: string;
          seed?: string;
          confidence?: string;
          maxFlipped?: string;
          showFlipped: string;
          url?: string;
          key?: string;
        },
      ) => {
        if (runIds.length < 2 || runIds.length > 10) throw new CliError(`give 2 to 10 run ids, got ${runIds.length}`);
        if (opts.pairwise) {
          if (runIds.length !== 2) throw new CliError(`--pairwise compares two runs, got ${runIds.length}`);
          const p = await new ApiClient(apiTargetFrom(opts)).request<PairwiseComparison>('POST', 'v1/compare/pairwise', {
            run_ids: runIds,
            ...(opts.model ? { model: opts.model } : {}),
          });
          out.write(opts.json ? JSON.stringify(p, null, 2) + '\n' : renderPairwise(p));
          return;
        }
        const number = (flag: string, value: string | undefined, integer: boolean): number | undefined => {
          if (value === undefined) return undefined;
          const n = Number(value);
          if (!Number.isFinite(n) || (integer && !Number.isInteger(n)))
            throw new CliError(`${flag} must be ${integer ? 'an integer' : 'a number'}, got ${value}`);
          return n;
        };
        const options = {
          ...(opts.seed !== undefined ? { seed: number('--seed', opts.seed, true) } : {}),
          ...(opts.confidence !== undefined ? { confidence: number('--confidence', opts.confidence, false) } : {}),
          ...(opts.maxFlipped !== undefined ? { max_flipped: number('--max-flipped', opts.maxFlipped, true) } : {}),
        };
        const showFlipped = number('--show-flipped', opts.showFlipped, true) ?? 5;
        const api = new ApiClient(apiTargetFrom(opts));
        const comparison = await api.request<Comparison>('POST', 'v1/compare', { run_ids: runIds, options });
        // like for like? (the comparison itself pairs only the cases, and the stages, both runs scored)
        const runs = await Promise.all(runIds.map((id) => api.request<Run>('GET', `v1/runs/${encodeURIComponent(id)}`)));
        for (const warning of comparisonWarnings(runs)) err.write(`evalp compare: warning: ${warning}\n`);
        // different suite versions: the comparison paired only cases with equal content hashes
        for (const pair of comparison.pairs)
          if (pair.suite_versions) err.write(`evalp compare: warning: ${pair.label}: ${pair.suite_versions.warning}\n`);
        out.write(opts.json ? JSON.stringify(comparison, null, 2) + '\n' : renderComparison(comparison, { flipped: showFlipped }) + '\n');
      },
    );
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** Win/tie/loss of the second run against the first, overall and per category. */
export function renderPairwise(p: PairwiseComparison): string {
  const row = (label: string, c: PairwiseComparison['overall']) =>
    `${label.padEnd(16)} ${String(c.wins).padStart(5)} ${String(c.ties).padStart(5)} ${String(c.losses).padStart(5)}   ${c.win_rate ? `${pct(c.win_rate.estimate)} (95% CI ${pct(c.win_rate.lower)}-${pct(c.win_rate.upper)})` : '-'}`;
  return [
    `pairwise (judge ${p.judge_model}): ${p.run_b} against ${p.run_a} on ${p.compared} shared cases (${p.cached} from stored verdicts, ${p.inconsistent} inconsistent across orders counted as ties, ${p.failed} not judged)`,
    `${''.padEnd(16)} ${'win'.padStart(5)} ${'tie'.padStart(5)} ${'loss'.padStart(5)}   win rate of decisive pairs`,
    row('overall', p.overall),
    ...p.by_category.map((c) => row(c.category, c)),
    `judge cost $${p.cost_usd.toFixed(4)}`,
    '',
  ].join('\n');
}
