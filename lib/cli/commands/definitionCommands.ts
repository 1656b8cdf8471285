import type { Command } from 'commander';
import { clientFor, readJsonFile, table, withConnection, type CommandIO, type ConnectionOptions, type Page } from './resourceCommands.js';

/** The API path of one item of `collection` (e.g. `v1/benchmarks`), with an optional tail (`/runs`). */
export const itemPath =
  (collection: string) =>
  (id: string, tail = ''): string =>
    `${collection}/${encodeURIComponent(id)}${tail}`;

/** `<cmd> list`: the first 1,000 items of `collection`, as JSON (`--json`) or one table row each. */
export function addListCommand<T>(
  cmd: Command,
  io: CommandIO,
  spec: { collection: string; description: string; head: string[]; row: (item: T) => string[] },
): void {
  withConnection(cmd.command('list').description(spec.description)).action(async (opts: ConnectionOptions) => {
    const page = await clientFor(opts).request<Page<T>>('GET', `${spec.collection}?limit=1000`);
    io.out(opts.json ? `${JSON.stringify(page.items, null, 2)}\n` : `${table(spec.head, page.items.map(spec.row))}\n`);
  });
}

/**
 * `<cmd> create --file <path>`: POSTs the JSON file (`-` reads stdin) to `collection`; prints the created item as
 * JSON (`--json`) or the line `created(item)`.
 */
export function addCreateFromFileCommand<T>(
  cmd: Command,
  io: CommandIO,
  spec: { collection: string; noun: string; description: string; created: (item: T) => string },
): void {
  withConnection(cmd.command('create').description(spec.description).requiredOption('--file <path>', `the ${spec.noun} as JSON`)).action(
    async (opts: ConnectionOptions & { file: string }) => {
      const item = await clientFor(opts).request<T>('POST', spec.collection, await readJsonFile(opts.file));
      io.out(opts.json ? `${JSON.stringify(item, null, 2)}\n` : `${spec.created(item)}\n`);
    },
  );
}
