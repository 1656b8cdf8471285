import { Command, Option } from 'commander';
import { Writable } from 'node:stream';
import cliProgress from 'cli-progress';
import type { TestCase } from '../../domain/index.js';
import { apiTargetFrom } from '../apiClient.js';
import { exportCasesTo } from './cases/exportCases.js';
import { importCasesFile, invalidRows, DEFAULT_BATCH_SIZE, type ImportCasesSummary } from './cases/importCases.js';
import { rowLabel } from './cases/casesHttp.js';
import { formatOf, readGoldFile } from './cases/readGoldFile.js';
import { lintCases, type CaseWarning } from '../../goldset/index.js';
import { clientFor, pageTable, processIO, withConnection, type CommandIO, type ConnectionOptions, type Page } from './resourceCommands.js';
import { caseShowCommand } from './readCommands.js';
import { reasonWithSuggestion } from './cases/fieldSuggestion.js';
import { CliError } from '../cliError.js';

/** Where `evalp cases` writes: results to `out` (stdout), progress and notes to `err` (stderr). */
export interface CasesIO extends CommandIO {
  err(text: string): void;
  /** draw a live progress bar (a terminal) instead of plain lines */
  tty: boolean;
  /** where a streamed export goes without --out (default: a stream over `out`) */
  stdout?: Writable;
}

const processCasesIO: CasesIO = {
  ...processIO,
  err: (text) => void process.stderr.write(text),
  tty: Boolean(process.stderr.isTTY),
  stdout: process.stdout,
};

const writableOver = (out: (text: string) => void): Writable =>
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      out(chunk.toString('utf8'));
      done();
    },
  });

interface FilterOptions {
  tags?: string;
  tagsMode?: string;
  complexityMin?: string;
  complexityMax?: string;
  apiVersion?: string;
  category?: string;
  q?: string;
}

const withFilters = (cmd: Command): Command =>
  cmd
    .option('--tags <tags>', 'comma-separated tags (a case with any of them)')
    .addOption(new Option('--tags-mode <mode>', 'any: one of the tags; all: every tag').choices(['any', 'all']))
    .option('--complexity-min <n>', 'complexity 1-5, inclusive')
    .option('--complexity-max <n>', 'complexity 1-5, inclusive')
    .option('--api-version <v>', 'API version')
    .option('--category <name>', 'category')
    .option('--q <text>', 'full text over question, expected answer and tags');

/** The filter flags as the API's query parameters (it validates them: a bad value is a 400 naming it). */
export function filterParams(opts: FilterOptions): URLSearchParams {
  const entries: Array<[string, string | undefined]> = [
    ['tags', opts.tags],
    ['tags_mode', opts.tagsMode],
    ['complexity_min', opts.complexityMin],
    ['complexity_max', opts.complexityMax],
    ['api_version', opts.apiVersion],
    ['category', opts.category],
    ['q', opts.q],
  ];
  return new URLSearchParams(entries.filter((e): e is [string, string] => e[1] !== undefined));
}

const truncate = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** `evalp cases import|export|list|show`. */
export function casesCommand(io: CasesIO = processCasesIO): Command {
  const cases = new Command('cases').description('import, export and list test cases (the gold set)');

  cases.addCommand(
    withConnection(
      new Command('import')
        .description(
          'import a gold file: validated here first (all or nothing unless --partial), then sent; big files in batches with a progress bar',
        )
        .argument('<file>', 'JSON, JSON Lines, CSV, or a BFCL question file (with --answers)')
        .addOption(
          new Option('--format <format>', 'default: from the extension (.json, .jsonl, .ndjson, .csv)').choices([
            'json',
            'jsonl',
            'csv',
            'bfcl',
          ]),
        )
        .option('--answers <file>', 'BFCL possible-answer file (implies --format bfcl)')
        .option('--category <name>', 'BFCL category of every row (default: from each id)')
        .option(
          '--functions <class=file...>',
          "BFCL multi-turn: a class's function docs, e.g. GorillaFileSystem=multi_turn_func_doc/gorilla_file_system.json",
        )
        .option('--partial', 'import the valid rows and list the invalid ones (default: one bad row imports nothing)')
        .option('--source <name>', 'metadata.source for cases that have none')
        .option('--batch-size <n>', 'cases per request for big files', String(DEFAULT_BATCH_SIZE)),
    ).action(
      async (
        file: string,
        opts: ConnectionOptions & {
          format?: string;
          answers?: string;
          category?: string;
          functions?: string[];
          partial?: boolean;
          source?: string;
          batchSize: string;
        },
      ) => {
        const batchSize = Number(opts.batchSize);
        if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 50_000)
          throw new CliError('--batch-size must be an integer 1-50000');
        const format = formatOf(file, opts.format, opts.answers !== undefined);
        const progress = importProgress(io);
        const summary = await importCasesFile(apiTargetFrom(opts), {
          file,
          format,
          ...(opts.answers ? { answers: opts.answers } : {}),
          ...(opts.category ? { category: opts.category } : {}),
          ...(opts.functions ? { functions: functionFiles(opts.functions) } : {}),
          ...(opts.source ? { source: opts.source } : {}),
          partial: opts.partial ?? false,
          batchSize,
          onValidated: (result, ms) => {
            io.err(`checked ${result.total_rows} rows of ${file} in ${(ms / 1000).toFixed(1)} s: ${result.cases.length} valid\n`);
            printWarnings(io, lintCases(result.cases), 10);
          },
          onProgress: progress.update,
        }).finally(progress.stop);
        for (const e of summary.errors.slice(0, 20))
          io.err(`skipped ${rowLabel(e.row, e.id)}: ${e.field || '(row)'}: ${reasonWithSuggestion(e.field, e.reason)}\n`);
        if (summary.error_count > 20) io.err(`... and ${summary.error_count - 20} more errors\n`);
        io.out(opts.json ? `${JSON.stringify(summary, null, 2)}\n` : `${importLine(summary)}\n`);
      },
    ),
  );

  cases.addCommand(
    new Command('lint')
      .description(
        'question checks on a gold file (no server): fewer than three facts, no critical fact, no tool hints, little category or difficulty diversity; warnings only',
      )
      .argument('<file>', 'JSON, JSON Lines, CSV, or a BFCL question file (with --answers)')
      .addOption(new Option('--format <format>', 'default: from the extension').choices(['json', 'jsonl', 'csv', 'bfcl']))
      .option('--answers <file>', 'BFCL possible-answer file')
      .option('--json', 'print the warnings as JSON')
      .action(async (file: string, opts: { format?: string; answers?: string; json?: boolean }) => {
        const format = formatOf(file, opts.format, opts.answers !== undefined);
        const result = await readGoldFile({ file, format, ...(opts.answers ? { answers: opts.answers } : {}) }, { partial: true });
        const warnings = lintCases(result.cases);
        if (opts.json) io.out(`${JSON.stringify({ cases: result.cases.length, invalid_rows: result.errors.length, warnings }, null, 2)}\n`);
        else {
          printWarnings(io, warnings, Infinity);
          io.out(
            `${result.cases.length} cases checked${result.errors.length ? ` (${result.errors.length} invalid rows skipped; evalp cases import lists them)` : ''}: ${warnings.length} warning(s)\n`,
          );
        }
      }),
  );

  cases.addCommand(
    withFilters(
      withConnection(
        new Command('export')
          .description('export cases (streamed) as JSON Lines or CSV; evalp cases import reads either back unchanged')
          .addOption(new Option('--format <format>', 'file format').choices(['jsonl', 'csv']).default('jsonl'))
          .option('--out <file>', 'write to a file (default: stdout)'),
      ),
    ).action(async (opts: ConnectionOptions & FilterOptions & { format: 'jsonl' | 'csv'; out?: string }) => {
      const started = performance.now();
      const result = await exportCasesTo(apiTargetFrom(opts), {
        format: opts.format,
        filter: filterParams(opts),
        ...(opts.out ? { out: opts.out } : { stdout: io.stdout ?? writableOver(io.out) }),
      });
      if (opts.out)
        io.err(
          `exported ${result.total} cases (${result.bytes} bytes) to ${opts.out} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
        );
    }),
  );

  cases.addCommand(
    withFilters(
      withConnection(
        new Command('list')
          .description('list cases as a table (newest last), filtered')
          .option('--limit <n>', 'page size 1-1000', '50')
          .option('--offset <n>', 'skip this many', '0'),
      ),
    ).action(async (opts: ConnectionOptions & FilterOptions & { limit: string; offset: string }) => {
      const query = filterParams(opts);
      query.set('limit', opts.limit);
      query.set('offset', opts.offset);
      const page = await clientFor(opts).request<Page<TestCase>>('GET', `v1/test-cases?${query}`);
      if (opts.json) return io.out(`${JSON.stringify(page, null, 2)}\n`);
      io.out(
        pageTable(page, [
          ['id', (c) => c.id],
          ['category', (c) => c.metadata.category ?? ''],
          ['cx', (c) => String(c.metadata.complexity_level)],
          ['tags', (c) => c.metadata.tags.join(',')],
          ['api', (c) => c.metadata.api_version ?? ''],
          ['question', (c) => truncate(c.nl_query.replace(/\s+/g, ' '), 60)],
        ]),
      );
    }),
  );
  cases.addCommand(caseShowCommand(io));
  return cases;
}

function importLine(s: ImportCasesSummary): string {
  const ms = s.validate_ms + s.send_ms;
  const rate = s.imported >= 1_000 && ms > 0 ? `, ${Math.round(s.imported / (ms / 1000))} cases/s` : '';
  const catalogs = s.catalogs.length ? `; ${s.catalogs.length} tool catalog${s.catalogs.length === 1 ? '' : 's'}` : '';
  const rows = invalidRows(s.errors);
  const skipped = s.error_count
    ? `; ${rows} invalid row${rows === 1 ? '' : 's'} skipped (${s.error_count} error${s.error_count === 1 ? '' : 's'})`
    : '';
  return `imported ${s.imported} cases from ${s.file} (created ${s.created}, updated ${s.updated}) in ${(ms / 1000).toFixed(1)} s${rate}${catalogs}${skipped}`;
}

/** A live bar on a terminal; otherwise a line at most every 10%. */
function importProgress(io: CasesIO): { update(sent: number, total: number): void; stop(): void } {
  if (io.tty) {
    const bar = new cliProgress.SingleBar(
      {
        format: 'importing [{bar}] {percentage}% | {value}/{total} cases | {eta_formatted} left',
        hideCursor: true,
        stream: process.stderr,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update: (sent, total) => {
        if (!started) bar.start(total, 0);
        started = true;
        bar.update(sent);
      },
      stop: () => void (started && bar.stop()),
    };
  }
  let lastTenth = -1;
  return {
    update: (sent, total) => {
      const tenth = Math.floor((sent / Math.max(1, total)) * 10);
      if (tenth !== lastTenth && total > 0) io.err(`imported ${sent}/${total} cases\n`);
      lastTenth = tenth;
    },
    stop: () => undefined,
  };
}

/** Question-check warnings on stderr, `max` of them and a count of the rest. */
function printWarnings(io: CasesIO, warnings: readonly CaseWarning[], max: number): void {
  for (const w of warnings.slice(0, max)) io.err(`warning: ${w.test_case_id ?? '(gold set)'}: ${w.code}: ${w.message}\n`);
  if (warnings.length > max) io.err(`warning: ... and ${warnings.length - max} more (evalp cases lint FILE lists them all)\n`);
}

/** `--functions Class=file ...` as a map of class name to file path. */
function functionFiles(values: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf('=');
    if (at <= 0 || at === value.length - 1)
      throw new CliError(`--functions ${value}: expected <class>=<file>, e.g. GorillaFileSystem=gorilla_file_system.json`);
    files[value.slice(0, at)] = value.slice(at + 1);
  }
  return files;
}
