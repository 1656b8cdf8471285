import { join, resolve } from 'node:path';
import Table from 'cli-table3';
import { Command } from 'commander';
import { liveServer } from '../../app/index.js';
import { OrganizationSchema, type Organization } from '../../domain/index.js';
import { ApiClient, apiTargetFrom } from '../apiClient.js';
import { CliError } from '../cliError.js';
import { localOrganizations } from './keysLocal.js';

interface OrgOpts {
  url?: string;
  key?: string;
  connection?: string;
  dataDir: string;
}

interface OrgAdmin {
  create(org: { id: string; name: string; budget?: { monthly_usd: number } }): Promise<Organization>;
  list(): Promise<Organization[]>;
  close(): void;
}

function remoteOrgAdmin(api: ApiClient): OrgAdmin {
  return {
    create: (org) => api.request<Organization>('POST', 'v1/organizations', org),
    list: async () => (await api.request<{ items: Organization[] }>('GET', 'v1/organizations?limit=1000')).items,
    close: () => undefined,
  };
}

/** The local database's organizations (no server, no key: the file is the authority, as for `evalp keys`). */
async function localOrgAdmin(dataDir: string): Promise<OrgAdmin> {
  const [{ openHostDatabase }, { EmbeddedEntityStore }, { ensureDefaultOrganization }, { systemClock }] = await Promise.all([
    import('../../host/index.js'),
    import('../../adapters/embedded/index.js'),
    import('../../tenancy/index.js'),
    import('../../ports/index.js'),
  ]);
  const db = openHostDatabase(dataDir);
  const store = localOrganizations(db, EmbeddedEntityStore);
  return {
    async create(org) {
      const { _etag, ...created } = await store.create(OrganizationSchema.parse({ ...org, created_at: systemClock.now().toISOString() }));
      return created;
    },
    async list() {
      await ensureDefaultOrganization(store, systemClock);
      return (await store.list({ limit: 1000 })).items.map(({ _etag, ...o }) => o);
    },
    close: () => db.close(),
  };
}

async function withAdmin<T>(opts: OrgOpts, writes: boolean, work: (admin: OrgAdmin) => Promise<T>): Promise<T> {
  let admin: OrgAdmin;
  if (opts.url || opts.connection || process.env.EVALP_URL || process.env.EVALP_CONNECTION) {
    const target = apiTargetFrom(opts, process.env);
    process.stderr.write(`evalp orgs: through the API at ${target.url}\n`);
    admin = remoteOrgAdmin(new ApiClient(target));
  } else {
    const dataDir = resolve(opts.dataDir);
    const server = liveServer(dataDir);
    if (writes && server)
      throw new CliError(
        `a platform (pid ${server.pid}) is serving ${dataDir}: use --url ${server.url} --key <platform-admin key of default>`,
      );
    process.stderr.write(`evalp orgs: the local database ${join(dataDir, 'evalplatform.db')} (no --url, --connection or EVALP_URL)\n`);
    admin = await localOrgAdmin(dataDir);
  }
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
      "the local platform's state directory, used unless --url names a platform (env EVALP_DATA_DIR)",
      process.env.EVALP_DATA_DIR ?? '.evalplatform',
    )
    .option('--url <url>', 'through the API of a running platform (env EVALP_URL; needs a platform-admin key of the default organization)')
    .option('--key <key>', 'API key for --url (env EVALP_API_KEY, or the config file)')
    .option('--connection <name>', 'connect with a profile of the config file (env EVALP_CONNECTION)');

/** `evalp orgs create|list`: organizations (tenants), locally in the data dir or through the API. */
export function orgsCommand(): Command {
  const orgs = new Command('orgs').description(
    'create and list organizations (tenants); give one keys with `evalp keys create --org <id>`',
  );
  orgs.addCommand(
    withWhere(
      new Command('create')
        .description('create an organization (platform operator: a platform-admin of "default")')
        .argument('<id>', 'the organization id: a-z, 0-9 and "-", 1-63 characters')
        .requiredOption('--name <name>', 'its display name')
        .option('--budget-usd <usd>', 'monthly budget for judge and target spending (USD)'),
    ).action(async (id: string, opts: OrgOpts & { name: string; budgetUsd?: string }) => {
      const input = { id, name: opts.name, ...(opts.budgetUsd !== undefined ? { budget: { monthly_usd: Number(opts.budgetUsd) } } : {}) };
      const parsed = OrganizationSchema.omit({ created_at: true }).safeParse(input);
      if (!parsed.success) {
        const flag = (p: PropertyKey | undefined) => (p === 'id' ? '<id>' : p === 'budget' ? '--budget-usd' : `--${String(p)}`);
        throw new CliError(parsed.error.issues.map((i) => `${flag(i.path[0])}: ${i.message}`).join('; '));
      }
      const created = await withAdmin(opts, true, (admin) => admin.create(parsed.data));
      process.stdout.write(
        `created organization ${created.id} "${created.name}"${created.budget ? ` with a monthly budget of $${created.budget.monthly_usd}` : ''}\n`,
      );
    }),
  );
  orgs.addCommand(
    withWhere(new Command('list').description('list organizations').option('--json', 'print JSON')).action(
      async (opts: OrgOpts & { json?: boolean }) => {
        const list = await withAdmin(opts, false, (admin) => admin.list());
        if (opts.json) return void process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        const table = new Table({ head: ['id', 'name', 'monthly budget', 'created'], style: { head: [], border: [] } });
        for (const o of list) table.push([o.id, o.name, o.budget ? `$${o.budget.monthly_usd}` : '-', o.created_at]);
        process.stdout.write(`${table.toString()}\n`);
      },
    ),
  );
  return orgs;
}
