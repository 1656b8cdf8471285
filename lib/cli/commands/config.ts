import { Command } from 'commander';
import Table from 'cli-table3';
import { maskSecret, type EffectiveValue } from '../../app/index.js';
import { cliConfigLocation, cliSettings } from '../cliConfig.js';

/** One row of `evalp config show`: the value (secrets masked) and where it came from. */
export function shownValue(v: EffectiveValue): { key: string; value: string | number | boolean | null; source: string } {
  const value = v.secret ? (maskSecret(v.value) ?? null) : (v.value ?? null);
  return { key: v.key, value, source: v.source };
}

/**
 * `evalp config show [--json] [--client ID] [flags]`: the effective configuration (environment > flags >
 * evalplatform.config.yaml > defaults) and, for each key, where its value came from; secrets masked. The flags
 * a command takes can be given to see what they would change.
 */
export function configCommand(): Command {
  const show = new Command('show')
    .description('print the effective configuration and where each value came from (env NAME / flag --x / file:key / default)')
    .option('--json', 'print it as JSON')
    .option('--client <id>', "apply the config file's clients.<id> overrides")
    .option('--connection <name>', 'a named connection of the config file')
    .option('--url <url>', 'as the commands take it')
    .option('--key <key>', 'as the commands take it')
    .option('--profile <profile>', 'as submit takes it')
    .option('--fail-under <rate>', 'as evaluate takes it')
    .option('--fail-on <level>', 'as wait takes it')
    .option('--judge <kind>', 'as submit takes it')
    .option('--judge-model <model>', 'as submit takes it')
    .action(
      (opts: {
        json?: boolean;
        client?: string;
        connection?: string;
        url?: string;
        key?: string;
        profile?: string;
        failUnder?: string;
        failOn?: string;
        judge?: string;
        judgeModel?: string;
      }) => {
        const location = cliConfigLocation();
        const settings = cliSettings({
          flags: {
            '--url': opts.url,
            '--key': opts.key,
            '--profile': opts.profile,
            '--fail-under': opts.failUnder,
            '--fail-on': opts.failOn,
            '--judge': opts.judge,
            '--judge-model': opts.judgeModel,
          },
          ...(opts.client ? { client: opts.client } : {}),
          ...(opts.connection ? { connection: opts.connection } : {}),
        });
        const rows = settings.values.map(shownValue);
        const file = location ? { path: location.path, found_by: location.how } : null;
        if (opts.json) {
          process.stdout.write(JSON.stringify({ file, values: rows }, null, 2) + '\n');
          return;
        }
        process.stdout.write(
          `config file: ${file ? `${file.path} (${foundBy[file.found_by]})` : 'none (looked for --config, EVALP_CONFIG, evalplatform.config.yaml here and above, ~/.config/evalp/)'}\n`,
        );
        const table = new Table({ head: ['key', 'value', 'source'], style: { head: [], border: [] } });
        for (const r of rows) table.push([r.key, r.value === null ? '-' : String(r.value), r.source]);
        process.stdout.write(table.toString() + '\n');
      },
    );
  return new Command('config').description('the configuration file (evalplatform.config.yaml) and the effective settings').addCommand(show);
}

const foundBy = { flag: '--config', env: 'EVALP_CONFIG', search: 'found in this directory or a parent', home: 'the user config' } as const;
