import { constants, createWriteStream } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { Command, Option } from 'commander';
import { COERCION_POLICY_NAMES, type EvaluationProfile, resolveEvaluationConfig, type Scorecard } from '../../domain/index.js';
import { loadGoldSet, parseToolCatalog, readOutputsFile, scoreOutputs, type GoldFormat } from '../../goldset/index.js';
import { SummaryAccumulator, formatSummary } from '../../evaluation/index.js';
import { createApiProvider } from '../../app/index.js';
import { createJudge } from '../../judges/index.js';
import { CliError } from '../cliError.js';
import { cliSettings } from '../cliConfig.js';
import { formatOf, type GoldFormat as FileFormat } from './cases/readGoldFile.js';
import { describeFailure } from '../../reports/index.js';
import { CompatGapAccumulator, formatCompatGaps } from './bfclCompatReport.js';

/** How many failed cases the summary lists (`--top`). */
const DEFAULT_TOP = 10;

interface EvaluateOptions {
  gold: string;
  answers?: string;
  outputs: string;
  catalog?: string;
  format?: FileFormat | 'native';
  top: string;
  out?: string;
  profile?: EvaluationProfile;
  coercion: 'default' | 'bfcl' | 'strict';
  cassette?: string;
  execution?: 'recorded' | 'expected';
  judge?: 'local' | 'openai';
  runId: string;
  failUnder?: string;
  json?: boolean;
  compat?: 'bfcl';
  explain?: boolean;
}

export function evaluateCommand(): Command {
  return new Command('evaluate')
    .description('score recorded target outputs against a gold set offline (stages 1-2; 3-4 when enabled)')
    .requiredOption('--gold <file>', 'gold set: native JSON/JSONL, CSV, or BFCL question file')
    .option('--answers <file>', 'BFCL possible-answer file (with --format bfcl)')
    .requiredOption('--outputs <file>', 'JSONL of {"test_case_id", "output"} with raw target outputs')
    .option('--catalog <file>', 'tool catalog (native, OpenAI tools or Anthropic tools JSON) for schema validation')
    .addOption(
      new Option(
        '--format <format>',
        'gold set format, as `cases import` names them (default: from the extension .json, .jsonl/.ndjson, .csv; bfcl with --answers; native = json or jsonl)',
      ).choices(['json', 'jsonl', 'csv', 'bfcl', 'native']),
    )
    .option('--top <n>', 'list this many failed cases with their stage and message', String(DEFAULT_TOP))
    .option('--out <file>', 'write scorecards (JSONL) here instead of stdout')
    .addOption(new Option('--profile <profile>', 'stage profile').choices(['ci', 'nightly', 'release']))
    .addOption(
      new Option('--coercion <policy>', 'run-level coercion policy (cases may override)')
        .choices([...COERCION_POLICY_NAMES])
        .default('default'),
    )
    .addOption(new Option('--execution <provider>', 'enable stage 3 with this provider').choices(['recorded', 'expected']))
    .option('--cassette <file>', 'recorded API responses (JSONL cassette) for --execution recorded')
    .addOption(
      new Option('--judge <judge>', 'enable stage 4: local (offline heuristic) or openai (OPENAI_* or AZURE_OPENAI_* settings)').choices([
        'local',
        'openai',
      ]),
    )
    .addOption(
      new Option('--compat <scorer>', "reproduce another scorer's verdicts: bfcl = BFCL's AST checker (on BFCL-imported cases)").choices([
        'bfcl',
      ]),
    )
    .option('--explain', 'with --format bfcl: list each case whose default and BFCL verdicts differ, with the rule that decided')
    .option('--run-id <id>', 'run id written on each scorecard', 'offline')
    .option('--fail-under <rate>', 'exit 1 when the pass rate is below this fraction (e.g. 0.9)')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: EvaluateOptions) => {
      const code = await runEvaluate(opts);
      process.exitCode = code;
    });
}

async function runEvaluate(opts: EvaluateOptions): Promise<number> {
  const top = Number(opts.top);
  if (!Number.isInteger(top) || top < 0) throw new CliError(`--top must be a whole number (got "${opts.top}")`);
  const fileFormat = opts.format === 'native' ? 'json' : formatOf(opts.gold, opts.format, opts.answers !== undefined);
  const format: GoldFormat = fileFormat === 'json' || fileFormat === 'jsonl' ? 'native' : fileFormat;
  const gold = await loadGoldSet({ gold: opts.gold, format, ...(opts.answers ? { answers: opts.answers } : {}) });
  const defaultCatalog = opts.catalog ? await readCatalog(opts.catalog) : undefined;
  await assertReadable(opts.outputs, '--outputs');
  const config = resolveEvaluationConfig({
    ...(opts.profile ? { profile: opts.profile } : {}),
    coercion: opts.coercion,
    ...(opts.compat ? { compat: opts.compat } : {}),
    ...(opts.execution
      ? { execution: { enabled: true, provider: opts.execution, ...(opts.cassette ? { cassette_path: opts.cassette } : {}) } }
      : {}),
    ...(opts.judge ? { semantics: { enabled: true, judge: opts.judge } } : {}),
  });
  if (config.execution.enabled && config.execution.provider === 'recorded' && !opts.cassette) {
    throw new CliError('--execution recorded needs --cassette <file> (recorded API responses)');
  }
  const apiProvider = config.execution.enabled
    ? await createApiProvider(config.execution, defaultCatalog ? { catalog: defaultCatalog } : {})
    : undefined;
  const out: Writable = opts.out ? createWriteStream(opts.out) : process.stdout;
  const summary = new SummaryAccumulator();
  let errors = 0;
  /** lines that are not an output at all (not JSON, wrong shape): the file is invalid */
  const malformed: string[] = [];
  const failures: Scorecard[] = [];
  const gaps = format === 'bfcl' || opts.compat ? new CompatGapAccumulator() : undefined;
  const scored = scoreOutputs(readOutputsFile(opts.outputs), {
    gold,
    config,
    runId: opts.runId,
    ...(defaultCatalog ? { defaultCatalog } : {}),
    deps: {
      ...(apiProvider ? { apiProvider } : {}),
      ...(config.semantics.enabled ? { judge: createJudge(config.semantics, process.env) } : {}),
    },
  });
  for await (const item of scored) {
    if (item.kind === 'error') {
      errors++;
      if (item.malformed) malformed.push(item.message);
      else process.stderr.write(`warning: ${item.message}\n`);
      continue;
    }
    summary.add(item.scorecard);
    const testCase = gold.cases.get(item.scorecard.test_case_id);
    if (gaps && testCase) gaps.add(item.scorecard, testCase);
    if (!item.scorecard.overall_passed && failures.length < top) failures.push(item.scorecard);
    if (!out.write(JSON.stringify(item.scorecard) + '\n')) await once(out, 'drain');
  }
  if (opts.out) {
    out.end();
    await once(out, 'finish');
  }
  const s = summary.summary();
  const missing = gold.cases.size - s.cases;
  const compatGaps = gaps?.summary(opts.explain === true);
  const report = opts.json
    ? JSON.stringify(
        { ...s, skipped_lines: errors, cases_without_output: missing, ...(compatGaps ? { bfcl_compat: compatGaps } : {}) },
        null,
        2,
      )
    : formatSummary(s);
  process.stderr.write(report + '\n');
  if (!opts.json && compatGaps && compatGaps.cases > 0) process.stderr.write(formatCompatGaps(compatGaps, opts.compat === 'bfcl') + '\n');
  if (opts.compat && compatGaps?.cases === 0 && s.cases > 0)
    process.stderr.write(
      `warning: --compat ${opts.compat}: no case carries a BFCL reference (metadata.bfcl, filled by the BFCL importer), so every verdict is the default one\n`,
    );
  if (!opts.json && missing > 0) process.stderr.write(`${missing} gold case(s) had no output\n`);
  if (!opts.json && failures.length > 0) process.stderr.write(topFailures(failures, s.cases - s.passed) + '\n');
  if (malformed.length > 0) {
    const shown = malformed.slice(0, 10).join('; ');
    throw new CliError(
      `--outputs ${opts.outputs}: ${malformed.length} line(s) are not outputs (each line must be {"test_case_id": "...", "output": ...}): ${shown}${malformed.length > 10 ? `; and ${malformed.length - 10} more` : ''}`,
    );
  }
  // environment (EVALP_FAIL_UNDER) > --fail-under > evalplatform.config.yaml thresholds.fail_under
  const failUnder = cliSettings({ flags: { '--fail-under': opts.failUnder } }).get('thresholds.fail_under');
  if (failUnder !== undefined) {
    const threshold = Number(failUnder);
    if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) throw new CliError('--fail-under must be a number between 0 and 1');
    if ((s.pass_rate ?? 0) < threshold) return 1;
  }
  return 0;
}

/** The first failed cases: id, failing stage, error code and message (what to look at first). */
function topFailures(cards: readonly Scorecard[], failed: number): string {
  const lines = cards.map((card) => {
    const f = describeFailure(card);
    return `  ${card.test_case_id}  ${f ? `${f.stage}${f.error_code ? ` ${f.error_code}` : ''}: ${f.message}` : 'failed'}`;
  });
  return `Failed cases (first ${cards.length} of ${failed}):\n${lines.join('\n')}`;
}

/** A tool catalog file, or a CliError naming the file and what is wrong with it. */
async function readCatalog(file: string): Promise<ReturnType<typeof parseToolCatalog>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new CliError(`--catalog ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CliError(`--catalog ${file}: not valid JSON (${(err as Error).message})`);
  }
  try {
    return parseToolCatalog(json, 'catalog');
  } catch (err) {
    throw new CliError(`--catalog ${file}: not a tool catalog (native, OpenAI tools or Anthropic tools): ${(err as Error).message}`);
  }
}

async function assertReadable(file: string, flag: string): Promise<void> {
  try {
    await access(file, constants.R_OK);
  } catch (err) {
    throw new CliError(`${flag} ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}
