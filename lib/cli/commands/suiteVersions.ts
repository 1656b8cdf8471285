import type { Command } from 'commander';
import type { SuiteVersion, SuiteVersionDiff } from '../../domain/index.js';
import { clientFor, table, wholeNumber, withConnection, type CommandIO, type ConnectionOptions } from './resourceCommands.js';

const versionsPath = (suiteId: string) => `v1/test-suites/${encodeURIComponent(suiteId)}/versions`;

/** `evalp suites publish|versions|diff`: published, immutable suite versions (added to the suites command). */
export function addSuiteVersionCommands(cmd: Command, io: CommandIO): Command {
  withConnection(
    cmd
      .command('publish')
      .description('publish the suite as its next immutable version (case ids + content hashes); runs then pin it by default')
      .argument('<suite>')
      .option('--note <text>', 'what changed, for the version list'),
  ).action(async (suite: string, opts: ConnectionOptions & { note?: string }) => {
    const version = await clientFor(opts).request<SuiteVersion>('POST', versionsPath(suite), opts.note ? { note: opts.note } : {});
    io.out(
      opts.json
        ? `${JSON.stringify(version, null, 2)}\n`
        : `published ${suite} version ${version.version}: ${version.case_count} cases, content ${version.content_hash.slice(0, 12)}, by ${version.author}\n`,
    );
  });
  withConnection(cmd.command('versions').description("list the suite's published versions, newest first").argument('<suite>')).action(
    async (suite: string, opts: ConnectionOptions) => {
      const { items } = await clientFor(opts).request<{ items: SuiteVersion[] }>('GET', versionsPath(suite));
      if (opts.json) return void io.out(`${JSON.stringify(items, null, 2)}\n`);
      if (items.length === 0) return void io.out(`no published versions of ${suite} (runs use the live suite)\n`);
      io.out(
        `${table(
          ['version', 'cases', 'content', 'author', 'published', 'note'],
          items.map((v) => [String(v.version), String(v.case_count), v.content_hash.slice(0, 12), v.author, v.created_at, v.note]),
        )}\n`,
      );
    },
  );
  withConnection(
    cmd
      .command('diff')
      .description('cases added, removed and changed (content hash) between two versions')
      .argument('<suite>')
      .argument('<from>', 'version number')
      .argument('<to>', 'version number'),
  ).action(async (suite: string, from: string, to: string, opts: ConnectionOptions) => {
    const query = new URLSearchParams({ from: String(wholeNumber(from, '<from>')), to: String(wholeNumber(to, '<to>')) });
    const diff = await clientFor(opts).request<SuiteVersionDiff>(
      'GET',
      `v1/test-suites/${encodeURIComponent(suite)}/versions-diff?${query}`,
    );
    if (opts.json) return void io.out(`${JSON.stringify(diff, null, 2)}\n`);
    const lines = [
      `${suite}: version ${diff.from_version} -> ${diff.to_version}: ${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed, ${diff.unchanged} unchanged`,
      ...diff.added.map((id) => `+ ${id}`),
      ...diff.removed.map((id) => `- ${id}`),
      ...diff.changed.map((c) => `~ ${c.test_case_id} (${c.from_hash.slice(0, 12)} -> ${c.to_hash.slice(0, 12)})`),
    ];
    io.out(`${lines.join('\n')}\n`);
  });
  return cmd;
}
