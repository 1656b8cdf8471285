import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { Command, Option } from 'commander';
import { COERCION_POLICY_NAMES, resolveEvaluationConfig, type EvaluationProfile } from '../../domain/index.js';
import { loadGoldSet, parseToolCatalog, readOutputsFile, scoreOutputs, type GoldFormat } from '../../goldset/index.js';
import { SummaryAccumulator, formatSummary } from '../../evaluation/index.js';
import { createApiProvider } from '../../app/index.js';
import { createJudge } from '../../judges/index.js';
import { CliError } from '../cliError.js';

interface EvaluateOptions {
  gold: string;
  answers?: string;
  outputs: string;
  catalog?: string;
  format: GoldFormat;
  out?: string;
  profile?: EvaluationProfile;
  coercion: 'default' | 'bfcl' | 'strict';
  cassette?: string;
  execution?: 'recorded' | 'expected';
  judge?: 'local' | 'openai';
  runId: string;
  failUnder?: string;
  json?: boolean;
}

export function evaluateCommand(): Command {
  return new Command('evaluate')
    .description('score recorded target outputs against a gold set offline (stages 1-2; 3-4 when enabled)')
    .requiredOption('--gold <file>', 'gold set: native JSON/JSONL, CSV, or BFCL question file')
    .option('--answers <file>', "BFCL possible-answer file (with --format bfcl)")
    .requiredOption('--outputs <file>', 'JSONL of {"test_case_id", "output"} with raw target outputs')
    .option('--catalog <file>', 'tool catalog (native, OpenAI tools or Anthropic tools JSON) for schema validation')
    .addOption(new Option('--format <format>', 'gold set format').choices(['native', 'csv', 'bfcl']).default('native'))
    .option('--out <file>', 'write scorecards (JSONL) here instead of stdout')
    .addOption(new Option('--profile <profile>', 'stage profile').choices(['ci', 'nightly', 'release']))
    .addOption(new Option('--coercion <policy>', 'run-level coercion policy (cases may override)').choices([...COERCION_POLICY_NAMES]).default('default'))
    .addOption(new Option('--execution <provider>', 'enable stage 3 with this provider').choices(['recorded', 'expected']))
    .option('--cassette <file>', 'recorded API responses (JSONL cassette) for --execution recorded')
    .addOption(new Option('--judge <judge>', 'enable stage 4: local (offline heuristic) or openai (OPENAI_* or AZURE_OPENAI_* settings)').choices(['local', 'openai']))
    .option('--run-id <id>', 'run id written on each scorecard', 'offline')
    .option('--fail-under <rate>', 'exit 1 when the pass rate is below this fraction (e.g. 0.9)')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: EvaluateOptions) => {
      const code = await runEvaluate(opts);
      process.exitCode = code;
    });
}

async function runEvaluate(opts: EvaluateOptions): Promise<number> {
  const gold = await loadGoldSet({ gold: opts.gold, format: opts.format, ...(opts.answers ? { answers: opts.answers } : {}) });
  const defaultCatalog = opts.catalog ? parseToolCatalog(JSON.parse(await readFile(opts.catalog, 'utf8')), 'catalog') : undefined;
  const config = resolveEvaluationConfig({
    ...(opts.profile ? { profile: opts.profile } : {}),
    coercion: opts.coercion,
    ...(opts.execution ? { execution: { enabled: true, provider: opts.execution, ...(opts.cassette ? { cassette_path: opts.cassette } : {}) } } : {}),
    ...(opts.judge ? { semantics: { enabled: true, judge: opts.judge } } : {}),
  });
  if (config.execution.enabled && config.execution.provider === 'recorded' && !opts.cassette) {
    throw new CliError('--execution recorded needs --cassette <file> (recorded API responses)');
  }
  const apiProvider = config.execution.enabled ? await createApiProvider(config.execution, defaultCatalog ? { catalog: defaultCatalog } : {}) : undefined;
  const out: Writable = opts.out ? createWriteStream(opts.out) : process.stdout;
  const summary = new SummaryAccumulator();
  let errors = 0;
  const scored = scoreOutputs(readOutputsFile(opts.outputs), {
    gold,
    config,
    runId: opts.runId,
    ...(defaultCatalog ? { defaultCatalog } : {}),
    deps: { ...(apiProvider ? { apiProvider } : {}), ...(config.semantics.enabled ? { judge: createJudge(config.semantics, process.env) } : {}) },
  });
  for await (const item of scored) {
    if (item.kind === 'error') {
      errors++;
      process.stderr.write(`warning: ${item.message}\n`);
      continue;
    }
    summary.add(item.scorecard);
    if (!out.write(JSON.stringify(item.scorecard) + '\n')) await once(out, 'drain');
  }
  if (opts.out) {
    out.end();
    await once(out, 'finish');
  }
  const s = summary.summary();
  const missing = gold.cases.size - s.cases;
  const report = opts.json ? JSON.stringify({ ...s, skipped_lines: errors, cases_without_output: missing }, null, 2) : formatSummary(s);
  process.stderr.write(report + '\n');
  if (!opts.json && missing > 0) process.stderr.write(`${missing} gold case(s) had no output\n`);
  if (opts.failUnder !== undefined) {
    const threshold = Number(opts.failUnder);
    if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) throw new CliError('--fail-under must be a number between 0 and 1');
    if ((s.pass_rate ?? 0) < threshold) return 1;
  }
  return 0;
}
