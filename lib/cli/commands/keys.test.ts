import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/packageRoot.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../platform/embedded.js';
import { silentLogger } from '../../host/index.js';
import { runCliInProcess } from './cliRunner.test-helpers.js';

const root = packageRoot();
const run = promisify(execFile);
const KEY = /^evalp_[0-9a-f]{12}_[A-Za-z0-9_-]{32}$/;

let dataDir: string;
let platform: EmbeddedPlatform | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-keys-cli-'));
});

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await rm(dataDir, { recursive: true, force: true });
});

const evalp = (...args: string[]) => runCliInProcess(args);

async function api(path: string, key: string, init: RequestInit = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(`${platform!.url}/api/${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  });
  return { status: res.status, json: await res.json() };
}

describe('evalp keys', () => {
  let admin: string;

  it('creates the first key on a fresh data dir with no server: the key alone on stdout, details on stderr', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        join(root, 'lib/cli/main.ts'),
        'keys',
        'create',
        '--role',
        'platform-admin',
        '--role',
        'reader',
        '--name',
        'first admin',
        '--data-dir',
        dataDir,
      ],
      { cwd: root },
    );
    expect(stdout.split('\n')).toEqual([expect.stringMatching(KEY), '']);
    expect(stderr.split('\n').slice(0, 2)).toEqual([
      `evalp keys: the local database ${join(dataDir, 'evalplatform.db')} (no --url, --connection or EVALP_URL)`,
      expect.stringMatching(/^Created API key [0-9a-f]{12} "first admin" with roles platform-admin, reader\. It is shown only this once:/),
    ]);
    admin = stdout.trim();
  }, 30_000);

  it('the key works on the platform started on that data dir, and the local creation is audited', async () => {
    platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
    const keys = await api('v1/keys', admin);
    expect(keys.json.items.map((k: { name: string; roles: string[] }) => [k.name, k.roles])).toEqual([
      ['first admin', ['platform-admin', 'reader']],
    ]);
    const audit = await api('v1/audit', admin);
    expect(audit.json.items).toEqual([
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: { id: expect.stringMatching(/^local:/), name: expect.any(String), kind: 'local' },
        method: 'CLI',
        route: 'keys-create',
        action: 'create',
        entity_type: 'keys',
        entity_id: admin.split('_')[1],
        status: 201,
        request_id: null,
      },
    ]);
  });

  it('creates, lists and revokes through the API with --url; a revoked key gets 401 at once', async () => {
    const created = await evalp('keys', 'create', '--role', 'reader', 'runner', '--name', 'ci', '--url', platform!.url, '--key', admin);
    expect([created.code, created.stdout.trim()]).toEqual([0, expect.stringMatching(KEY)]);
    const ci = created.stdout.trim();
    expect((await api('v1/runs', ci)).status).toBe(200);
    const listed = JSON.parse((await evalp('keys', 'list', '--json', '--url', platform!.url, '--key', admin)).stdout) as Array<{
      name: string;
      status: string;
    }>;
    expect(listed.map((k) => [k.name, k.status])).toEqual([
      ['first admin', 'active'],
      ['ci', 'active'],
    ]);
    const revoked = await evalp('keys', 'revoke', ci.split('_')[1]!, '--url', platform!.url, '--key', admin);
    expect(revoked.stdout).toMatch(/^revoked [0-9a-f]{12} "ci" at /);
    expect((await api('v1/runs', ci)).status).toBe(401);
    const audit = (await api('v1/audit?entity_type=keys', admin)).json.items.map(
      (r: { method: string; action: string; actor: { kind: string } }) => [r.method, r.action, r.actor.kind],
    );
    expect(audit).toEqual([
      ['DELETE', 'revoke', 'api-key'],
      ['POST', 'create', 'api-key'],
      ['CLI', 'create', 'local'],
    ]);
  });

  it('reads the local database while the platform runs, but refuses to change it, naming the server to use instead', async () => {
    const table = await evalp('keys', 'list', '--data-dir', dataDir);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/ci\s+│ reader, runner\s+│ revoked 20/);
    for (const args of [
      ['create', '--role', 'reader'],
      ['revoke', admin.split('_')[1]!],
    ]) {
      const refused = await evalp('keys', ...args, '--data-dir', dataDir);
      expect([refused.code, refused.stdout]).toEqual([2, '']);
      expect(refused.stderr).toBe(
        `evalp: a platform (pid ${process.pid}) is serving ${dataDir} at ${platform!.url}; change its keys through its API: evalp keys ... --url ${platform!.url} --key <platform-admin key> (or set EVALP_URL and EVALP_API_KEY)\n`,
      );
    }
  });

  it('honours EVALP_URL and EVALP_API_KEY like every other command', async () => {
    const saved = { url: process.env.EVALP_URL, key: process.env.EVALP_API_KEY };
    process.env.EVALP_URL = platform!.url;
    process.env.EVALP_API_KEY = admin;
    try {
      const created = await evalp('keys', 'create', '--role', 'reader', '--name', 'dashboard');
      expect(created.stderr).toContain(`evalp keys: through the API at ${platform!.url}`);
      const dashboard = created.stdout.trim();
      expect((await api('v1/runs', dashboard)).status).toBe(200);
      expect((await evalp('keys', 'revoke', dashboard.split('_')[1]!)).code).toBe(0);
      expect((await api('v1/runs', dashboard)).status).toBe(401);
    } finally {
      for (const [name, value] of [
        ['EVALP_URL', saved.url],
        ['EVALP_API_KEY', saved.key],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it.each([
    [['keys', 'create', '--name', 'x'], '--role: give at least one role'],
    [['keys', 'list', '--url', 'http://127.0.0.1:1', '--key', 'evalp_x'], 'cannot reach http://127.0.0.1:1'],
  ])('fails with exit code 2 and a message: %j', async (args, message) => {
    const r = await evalp(...args, ...(args.includes('--url') ? [] : ['--data-dir', dataDir]));
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(message);
  });

  it('needs a platform-admin key for --url (403 from the API)', async () => {
    const reader = (await evalp('keys', 'create', '--role', 'reader', '--url', platform!.url, '--key', admin)).stdout.trim();
    const r = await evalp('keys', 'list', '--url', platform!.url, '--key', reader);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('answered 403')]);
  });

  it('writes the local database again once the platform has stopped; an unknown id is named', async () => {
    await platform!.stop({ timeoutInMs: 5_000 });
    platform = undefined;
    const r = await evalp('keys', 'revoke', '000000000000', '--data-dir', dataDir);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('no API key with id 000000000000')]);
    expect((await evalp('keys', 'create', '--role', 'reader', '--data-dir', dataDir)).code).toBe(0);
  });
});
