import { Command } from 'commander';
import type { CatalogImpactReport, CatalogMigrationOperation, CatalogMigrationResult } from '../../domain/index.js';
import { CliError } from '../cliError.js';
import { usageErrorsExit2 } from './cliOptions.js';
import { clientFor, processIO, withConnection, type CommandIO, type ConnectionOptions } from './resourceCommands.js';

const versionPath = (name: string, version: string) =>
  `v1/tool-catalogs/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `tool.from=to` -> rename_argument */
function renameArgument(spec: string): CatalogMigrationOperation {
  const m = /^([^.=]+)\.([^=]+)=(.+)$/.exec(spec);
  if (!m) throw new CliError(`--rename-arg "${spec}": expected <tool>.<argument>=<new name>, e.g. get_order.order_id=order_ref`);
  return { op: 'rename_argument', tool: m[1]!, from: m[2]!, to: m[3]! };
}

/** `tool.argument=<JSON value>` (a bare word is a string) -> add_default */
function addDefault(spec: string): CatalogMigrationOperation {
  const m = /^([^.=]+)\.([^=]+)=(.*)$/.exec(spec);
  if (!m) throw new CliError(`--default "${spec}": expected <tool>.<argument>=<JSON value>, e.g. get_order.include_items=false`);
  let value: unknown;
  try {
    value = JSON.parse(m[3]!);
  } catch {
    value = m[3]!;
  }
  return { op: 'add_default', tool: m[1]!, argument: m[2]!, value: value as never };
}

/** `from=to` -> rename_tool */
function renameTool(spec: string): CatalogMigrationOperation {
  const m = /^([^=]+)=(.+)$/.exec(spec);
  if (!m) throw new CliError(`--rename-tool "${spec}": expected <old tool>=<new tool>`);
  return { op: 'rename_tool', from: m[1]!, to: m[2]! };
}

function impactText(r: CatalogImpactReport): string {
  const lines = [`${r.catalog}@${r.version}: ${r.broken} of ${r.checked} cases no longer validate`];
  for (const s of r.suites) {
    lines.push(`suite ${s.suite_id}${s.pinned_version ? ` (pinned to ${s.pinned_version})` : ''}: ${s.broken} of ${s.checked} break`);
    for (const c of s.cases) for (const b of c.breaks) lines.push(`  ${c.test_case_id}  ${b.call}  ${b.kind}  ${b.message}`);
  }
  if (r.suggested_operations.length > 0) {
    lines.push('suggested migration:');
    for (const op of r.suggested_operations)
      lines.push(
        op.op === 'rename_argument'
          ? `  --rename-arg ${op.tool}.${op.from}=${op.to}`
          : op.op === 'add_default'
            ? `  --default ${op.tool}.${op.argument}=${JSON.stringify(op.value)}`
            : `  --rename-tool ${op.from}=${op.to}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

function migrationText(r: CatalogMigrationResult): string {
  const lines = [
    `${r.dry_run ? 'dry run (nothing written; --apply writes)' : 'migrated'}: ${r.changed} case(s) changed for ${r.catalog}@${r.version}`,
  ];
  for (const s of r.suites) {
    const pin = s.pin.from === s.pin.to ? (s.pin.from ? `pin stays ${s.pin.from}` : 'no pin') : `pin ${s.pin.from} -> ${s.pin.to}`;
    const published = s.published_version ? `, published version ${s.published_version}` : '';
    const snapshot = s.snapshot_version ? ` (old bodies in version ${s.snapshot_version})` : '';
    lines.push(
      `suite ${s.suite_id}: ${s.changed.length} changed, ${s.unchanged} unchanged, ${s.still_broken.length} still break; ${pin}${published}${snapshot}`,
    );
    for (const c of s.changed)
      for (const ch of c.changes)
        lines.push(
          `  ~ ${c.test_case_id}  ${ch.path}: ${ch.before === undefined ? '(absent)' : JSON.stringify(ch.before)} -> ${JSON.stringify(ch.after)}`,
        );
    for (const c of s.still_broken) for (const b of c.breaks) lines.push(`  ! ${c.test_case_id}  ${b.kind}  ${b.message}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `evalp catalogs impact|migrate`: what a new tool-catalog version breaks in the gold set, and the migration to it. */
export function catalogsCommand(io: CommandIO = processIO): Command {
  const cmd = usageErrorsExit2(
    new Command('catalogs').description('tool-catalog versions: impact of a new version on the suites, case migration'),
  );
  withConnection(
    cmd
      .command('impact')
      .description('which cases of which suites no longer validate against a catalog version, and why')
      .argument('<name>')
      .argument('<version>')
      .option('--suite <ids>', 'comma-separated suite ids (default: every suite using the catalog)'),
  ).action(async (name: string, version: string, opts: ConnectionOptions & { suite?: string }) => {
    const query = opts.suite ? `?${new URLSearchParams({ suite_id: opts.suite })}` : '';
    const report = await clientFor(opts).request<CatalogImpactReport>('GET', `${versionPath(name, version)}/impact${query}`);
    io.out(opts.json ? `${JSON.stringify(report, null, 2)}\n` : impactText(report));
  });
  withConnection(
    cmd
      .command('migrate')
      .description('migrate the cases of the suites using the catalog to a version (dry run unless --apply)')
      .argument('<name>')
      .argument('<version>')
      .option('--rename-arg <tool.from=to>', 'rename an argument (repeatable)', collect)
      .option('--default <tool.arg=json>', 'give a new required argument a value where it is missing (repeatable)', collect)
      .option('--rename-tool <from=to>', 'rename a tool (repeatable)', collect)
      .option('--suite <ids>', 'comma-separated suite ids (default: every suite using the catalog)')
      .option('--apply', 'write the new case versions (default: show the changes only)'),
  ).action(
    async (
      name: string,
      version: string,
      opts: ConnectionOptions & { renameArg?: string[]; default?: string[]; renameTool?: string[]; suite?: string; apply?: boolean },
    ) => {
      const operations = [
        ...(opts.renameTool ?? []).map(renameTool),
        ...(opts.renameArg ?? []).map(renameArgument),
        ...(opts.default ?? []).map(addDefault),
      ];
      const suiteIds = opts.suite
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const result = await clientFor(opts).request<CatalogMigrationResult>('POST', `${versionPath(name, version)}/migrate`, {
        operations,
        dry_run: !opts.apply,
        ...(suiteIds && suiteIds.length > 0 ? { suite_ids: suiteIds } : {}),
      });
      io.out(opts.json ? `${JSON.stringify(result, null, 2)}\n` : migrationText(result));
    },
  );
  return cmd;
}
