import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import Table from 'cli-table3';
import { ApiClient, apiTargetFrom } from '../apiClient.js';
import { CliError } from '../cliError.js';
import { usageErrorsExit2 } from './cliOptions.js';
import type { Page } from '../../ports/index.js';

/** Where a command writes (stdout and the exit code by default; tests capture them). */
export interface CommandIO {
  out(text: string): void;
  setExitCode(code: number): void;
}

export const processIO: CommandIO = {
  out: (text) => void process.stdout.write(text),
  setExitCode: (code) => {
    process.exitCode = code;
  },
};

export interface ConnectionOptions {
  url?: string;
  key?: string;
  json?: boolean;
}

/** A page of a list route (the ports' Page, as the API sends it). */
export type { Page } from '../../ports/index.js';

export type Row = Record<string, unknown>;

/** `--url`/`--key` (else EVALP_URL / EVALP_API_KEY) and `--json` on a subcommand. */
export function withConnection(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'platform URL (env EVALP_URL, default http://127.0.0.1:7071)')
    .option('--key <key>', 'API key (env EVALP_API_KEY)')
    .option('--json', 'print JSON (for scripts)');
}

export const clientFor = (opts: ConnectionOptions): ApiClient => new ApiClient(apiTargetFrom(opts));

/** No separator lines between rows (as the run tables). */
const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

export function table(head: string[], rows: string[][]): string {
  const t = new Table({ head, style: { head: [], border: [] }, chars: COMPACT });
  t.push(...rows);
  return t.toString();
}

/** A page as a table plus a line saying which part of the total it shows. */
export function pageTable<T>(page: Page<T>, columns: Array<[string, (item: T) => string]>): string {
  if (page.items.length === 0) return page.total === 0 ? 'none\n' : `none at offset ${page.offset} (total ${page.total})\n`;
  const rows = page.items.map((item) => columns.map(([, cell]) => cell(item)));
  const shown = `${page.offset + 1}-${page.offset + page.items.length} of ${page.total}${page.has_more ? ` (next: --offset ${page.offset + page.items.length})` : ''}`;
  return `${table(
    columns.map(([head]) => head),
    rows,
  )}\n${shown}\n`;
}

/** One entity as a two-column table: top-level fields, nested values as compact JSON. */
export function entityTable(entity: Row): string {
  const cell = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
  return `${table(
    ['field', 'value'],
    Object.entries(entity).map(([k, v]) => [k, cell(v)]),
  )}\n`;
}

export async function readJsonFile(path: string): Promise<unknown> {
  const text = path === '-' ? await readStdin() : await readFile(path, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CliError(`${path === '-' ? 'stdin' : path} is not JSON: ${(err as Error).message}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function wholeNumber(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new CliError(`${flag} must be a whole number (got "${text}")`);
  return Number(text);
}

export interface ResourceSpec {
  /** the command name: `suites` */
  name: string;
  description: string;
  /** what one is called: `test suite` */
  noun: string;
  /** collection path under /api: `v1/test-suites` */
  collection: string;
  /** list columns */
  columns: Array<[string, (item: Row) => string]>;
}

/**
 * `evalp <name> list|get|create --file|delete` against the management API: tables for people, `--json` for
 * scripts. Returns the command so a resource can add its own subcommands.
 */
export function resourceCommand(spec: ResourceSpec, io: CommandIO = processIO): Command {
  const cmd = usageErrorsExit2(new Command(spec.name).description(spec.description));
  const item = (id: string) => `${spec.collection}/${encodeURIComponent(id)}`;
  withConnection(cmd.command('list').description(`list ${spec.noun}s (GET /api/${spec.collection})`))
    .option('--limit <n>', 'page size (1-1000)', '50')
    .option('--offset <n>', 'skip this many', '0')
    .action(async (opts: ConnectionOptions & { limit: string; offset: string }) => {
      const query = new URLSearchParams({
        limit: String(wholeNumber(opts.limit, '--limit')),
        offset: String(wholeNumber(opts.offset, '--offset')),
      });
      const page = await clientFor(opts).request<Page<Row>>('GET', `${spec.collection}?${query}`);
      io.out(opts.json ? `${JSON.stringify(page, null, 2)}\n` : pageTable(page, spec.columns));
    });
  withConnection(cmd.command('get').description(`show one ${spec.noun}`).argument('<id>')).action(
    async (id: string, opts: ConnectionOptions) => {
      const entity = await clientFor(opts).request<Row>('GET', item(id));
      io.out(opts.json ? `${JSON.stringify(entity, null, 2)}\n` : entityTable(entity));
    },
  );
  withConnection(cmd.command('create').description(`create a ${spec.noun} from a JSON file (POST /api/${spec.collection})`))
    .requiredOption('--file <path>', 'the JSON body ("-" reads stdin)')
    .action(async (opts: ConnectionOptions & { file: string }) => {
      const created = await clientFor(opts).request<Row>('POST', spec.collection, await readJsonFile(opts.file));
      io.out(opts.json ? `${JSON.stringify(created, null, 2)}\n` : `created ${spec.noun} ${String(created.id)}\n`);
    });
  withConnection(
    cmd.command('delete').description(`delete a ${spec.noun} (idempotent; refused while something uses it)`).argument('<id>'),
  ).action(async (id: string, opts: ConnectionOptions) => {
    await clientFor(opts).request('DELETE', item(id));
    io.out(opts.json ? `${JSON.stringify({ deleted: id })}\n` : `deleted ${spec.noun} ${id}\n`);
  });
  return cmd;
}
