import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../host/index.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../platform/embedded.js';
import { runCliInProcess } from './cliRunner.test-helpers.js';

let dataDir: string;
let platform: EmbeddedPlatform | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-orgs-cli-'));
});

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await rm(dataDir, { recursive: true, force: true });
});

const evalp = (...args: string[]) => runCliInProcess(args);

describe('evalp orgs and evalp keys --org', () => {
  it('creates organizations and keys for them locally, then the keys act in their organization through the API', async () => {
    const made = await evalp('orgs', 'create', 'acme', '--name', 'Acme Corp', '--budget-usd', '25', '--data-dir', dataDir);
    expect([made.code, made.stdout]).toEqual([0, 'created organization acme "Acme Corp" with a monthly budget of $25\n']);
    const bad = await evalp('orgs', 'create', 'Not An Id', '--name', 'x', '--data-dir', dataDir);
    expect([bad.code > 0, bad.stderr]).toEqual([true, expect.stringMatching(/<id>: an organization id is 1-63 characters/)]);
    const listed = JSON.parse((await evalp('orgs', 'list', '--json', '--data-dir', dataDir)).stdout) as Array<{ id: string }>;
    expect(listed.map((o) => o.id).sort()).toEqual(['acme', 'default']);
    const unknown = await evalp('keys', 'create', '--org', 'nowhere', '--role', 'reader', '--data-dir', dataDir);
    expect([unknown.code > 0, unknown.stderr]).toEqual([true, expect.stringContaining('no organization "nowhere"')]);
    const acmeKey = (await evalp('keys', 'create', '--org', 'acme', '--role', 'reader', '--data-dir', dataDir)).stdout.trim();
    const adminKey = (await evalp('keys', 'create', '--role', 'platform-admin', '--data-dir', dataDir)).stdout.trim();

    platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
    const me = await fetch(`${platform.url}/api/v1/me`, { headers: { authorization: `Bearer ${acmeKey}` } });
    expect(((await me.json()) as { organization: string }).organization).toBe('acme');
    const remote = await evalp('orgs', 'list', '--json', '--url', platform.url, '--key', acmeKey);
    expect((JSON.parse(remote.stdout) as Array<{ id: string }>).map((o) => o.id)).toEqual(['acme']);
    const viaApi = await evalp('orgs', 'create', 'beta', '--name', 'Beta', '--url', platform.url, '--key', adminKey);
    expect(viaApi.stdout).toBe('created organization beta "Beta"\n');
    const betaKey = await evalp('keys', 'create', '--org', 'beta', '--role', 'runner', '--url', platform.url, '--key', adminKey);
    expect(betaKey.stderr).toContain('in organization beta with roles runner');
    const refused = await evalp('orgs', 'create', 'gamma', '--name', 'G', '--url', platform.url, '--key', acmeKey);
    expect([refused.code > 0, refused.stderr]).toEqual([true, expect.stringContaining('403')]);
  }, 60_000);
});
