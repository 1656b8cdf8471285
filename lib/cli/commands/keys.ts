import { join, resolve } from 'node:path';
import { liveServer } from '../../app/index.js';
import Table from 'cli-table3';
import { Command, Option } from 'commander';
import { CreateApiKeyRequestSchema, type ApiKeyView } from '../../api/index.js';
import { ROLES } from '../../domain/index.js';
import { ApiClient, apiTargetFrom } from '../apiClient.js';
import { CliError } from '../cliError.js';
import { openLocalKeyAdmin, type KeyAdmin } from './keysLocal.js';

interface KeyOpts {
  url?: string;
  key?: string;
  connection?: string;
  dataDir: string;
}

/** The API's key routes behind the KeyAdmin shape (needs a platform-admin key). */
function remoteKeyAdmin(api: ApiClient): KeyAdmin {
  return {
    create: async (input) => {
      const { key, ...view } = await api.request<ApiKeyView & { key: string }>('POST', 'v1/keys', input);
      return { key, view };
    },
    list: async () => (await api.request<{ items: ApiKeyView[] }>('GET', 'v1/keys?limit=1000')).items,
    revoke: (id) => api.request<ApiKeyView>('DELETE', `v1/keys/${encodeURIComponent(id)}`),
    close: () => undefined,
  };
}

/**
 * Remote (the API) when a platform is named, as every other command connects: --url, --connection, EVALP_URL or
 * EVALP_CONNECTION. Otherwise the local database in --data-dir, said on stderr; a change there is refused while a
 * platform serves that directory (its keys are the API's then: use --url).
 */
async function keyAdmin(
  opts: KeyOpts,
  writes: boolean,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<KeyAdmin> {
  if (opts.url || opts.connection || env.EVALP_URL || env.EVALP_CONNECTION) {
    const target = apiTargetFrom(opts, env);
    process.stderr.write(`evalp keys: through the API at ${target.url}\n`);
    return remoteKeyAdmin(new ApiClient(target));
  }
  const dataDir = resolve(opts.dataDir);
  const server = liveServer(dataDir);
  if (writes && server) {
    throw new CliError(
      `a platform (pid ${server.pid}) is serving ${dataDir} at ${server.url}; change its keys through its API: evalp keys ... --url ${server.url} --key <platform-admin key> (or set EVALP_URL and EVALP_API_KEY)`,
    );
  }
  process.stderr.write(`evalp keys: the local database ${join(dataDir, 'evalplatform.db')} (no --url, --connection or EVALP_URL)\n`);
  return openLocalKeyAdmin(dataDir);
}

async function withAdmin<T>(opts: KeyOpts, work: (admin: KeyAdmin) => Promise<T>, writes = true): Promise<T> {
  const admin = await keyAdmin(opts, writes);
  try {
    return await work(admin);
  } finally {
    admin.close();
  }
}

const withWhere = (cmd: Command): Command =>
  cmd
    .option(
      '--data-dir <dir>',
      "the local platform's state directory, used unless --url, --connection or EVALP_URL names a platform (env EVALP_DATA_DIR)",
      process.env.EVALP_DATA_DIR ?? '.evalplatform',
    )
    .option('--url <url>', 'manage the keys of a running platform through its API instead (env EVALP_URL; needs a platform-admin key)')
    .option('--key <key>', 'platform-admin API key for --url (env EVALP_API_KEY, or the config file)')
    .option(
      '--connection <name>',
      'connect with a profile of the config file (~/.config/evalp/config.json or EVALP_CONFIG; env EVALP_CONNECTION)',
    );

export function keyTable(keys: readonly ApiKeyView[]): string {
  const table = new Table({ head: ['id', 'name', 'roles', 'status', 'created', 'organization'], style: { head: [], border: [] } });
  for (const k of keys)
    table.push([
      k.id,
      k.name,
      k.roles.join(', '),
      k.status === 'revoked' ? `revoked ${k.revoked_at}` : 'active',
      k.created_at,
      k.organization,
    ]);
  return table.toString();
}

/** `evalp keys create|list|revoke`: on the local database by default (works before any key exists), or through the API with --url. */
export function keysCommand(): Command {
  const keys = new Command('keys').description('create, list and revoke API keys (locally in the data dir, or through the API with --url)');
  keys.addCommand(
    withWhere(
      new Command('create')
        .description('create a key and print it once on stdout (details on stderr); only its SHA-256 is stored')
        .addOption(new Option('--role <role...>', 'the roles of the key (repeat --role or list several)').choices([...ROLES]))
        .option('--name <name>', 'what the key is for', 'cli')
        .option(
          '--org <organization>',
          "the organization the key acts in (default: the caller's; another one needs the platform operator)",
        ),
    ).action(async (opts: KeyOpts & { role?: string[]; name: string; org?: string }) => {
      const parsed = CreateApiKeyRequestSchema.safeParse({
        name: opts.name,
        roles: opts.role ?? [],
        ...(opts.org ? { organization: opts.org } : {}),
      });
      if (!parsed.success)
        throw new CliError(
          parsed.error.issues
            .map((i) => `--${i.path[0] === 'roles' ? 'role' : i.path[0] === 'organization' ? 'org' : String(i.path[0])}: ${i.message}`)
            .join('; '),
        );
      const { key, view } = await withAdmin(opts, (admin) => admin.create(parsed.data));
      process.stderr.write(
        `Created API key ${view.id} "${view.name}" ${view.organization === 'default' ? '' : `in organization ${view.organization} `}with roles ${view.roles.join(', ')}. It is shown only this once:\n`,
      );
      process.stdout.write(`${key}\n`);
    }),
  );
  keys.addCommand(
    withWhere(new Command('list').description('list keys (never their secrets)').option('--json', 'print JSON')).action(
      async (opts: KeyOpts & { json?: boolean }) => {
        const list = await withAdmin(opts, (admin) => admin.list(), false);
        process.stdout.write(opts.json ? `${JSON.stringify(list, null, 2)}\n` : `${keyTable(list)}\n`);
      },
    ),
  );
  keys.addCommand(
    withWhere(
      new Command('revoke')
        .description('revoke a key: calls with it get 401 from now on')
        .argument('<id>', 'the key id (the part after evalp_)'),
    ).action(async (id: string, opts: KeyOpts) => {
      const view = await withAdmin(opts, (admin) => admin.revoke(id));
      process.stdout.write(`revoked ${view.id} "${view.name}" at ${view.revoked_at}\n`);
    }),
  );
  return keys;
}
