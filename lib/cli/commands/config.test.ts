import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from './cliRunner.test-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'evalp-config-show-'));
const file = join(dir, 'evalplatform.config.yaml');
writeFileSync(
  file,
  [
    'connection:',
    '  url: https://evalp.example.com',
    '  key: evalp_0123456789abcdef',
    'profile: ci',
    'notifications:',
    '  email:',
    '    smtp: {host: smtp.example.com, password: hunter2}',
    'clients:',
    '  acme: {profile: nightly}',
  ].join('\n'),
);
const saved = { ...process.env };
afterEach(() => {
  for (const name of ['EVALP_CONFIG', 'EVALP_URL', 'EVALP_API_KEY', 'EVALP_PROFILE', 'EVALP_SMTP_HOST']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('evalp config show', () => {
  it('prints each value with its source, secrets masked (--json)', async () => {
    process.env.EVALP_CONFIG = file;
    process.env.EVALP_SMTP_HOST = 'env-smtp.example.com';
    delete process.env.EVALP_URL;
    delete process.env.EVALP_API_KEY;
    delete process.env.EVALP_PROFILE;
    const r = await runCliInProcess(['config', 'show', '--json', '--profile', 'release']);
    expect(r.code).toBe(0);
    const shown = JSON.parse(r.stdout) as { file: unknown; values: Array<{ key: string; value: unknown; source: string }> };
    expect(shown.file).toEqual({ path: file, found_by: 'env' });
    const byKey = Object.fromEntries(shown.values.map((v) => [v.key, v]));
    expect(byKey['connection.url']).toEqual({ key: 'connection.url', value: 'https://evalp.example.com', source: 'file:connection.url' });
    expect(byKey['connection.key']).toEqual({ key: 'connection.key', value: '****cdef', source: 'file:connection.key' });
    expect(byKey['profile']).toEqual({ key: 'profile', value: 'release', source: 'flag --profile' });
    expect(byKey['notifications.email.smtp.host']).toMatchObject({ value: 'env-smtp.example.com', source: 'env EVALP_SMTP_HOST' });
    expect(byKey['notifications.email.smtp.password']).toMatchObject({ value: '****', source: 'file:notifications.email.smtp.password' });
    expect(byKey['notifications.email.smtp.port']).toMatchObject({ value: 587, source: 'default' });
    expect(r.stdout).not.toContain('hunter2');
    expect(r.stdout).not.toContain('evalp_0123456789abcdef');
  });

  it('a table by default; --client applies the file clients.<id>; an env variable beating a flag is said on stderr', async () => {
    process.env.EVALP_CONFIG = file;
    process.env.EVALP_URL = 'http://127.0.0.1:9';
    const r = await runCliInProcess(['config', 'show', '--client', 'acme', '--url', 'http://flag.example.com']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`config file: ${file} (EVALP_CONFIG)`);
    expect(r.stdout).toMatch(/connection\.url\s*│\s*http:\/\/127\.0\.0\.1:9\s*│\s*env EVALP_URL/);
    expect(r.stdout).toMatch(/profile\s*│\s*nightly\s*│\s*file:clients\.acme\.profile/);
    expect(r.stderr).toBe('evalp: --url is overridden by EVALP_URL (environment variables win over flags)\n');
  });

  it('evalp --config FILE chooses the file; a bad file exits 2 naming the file, line and key', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'profile: ci\nthresholds:\n  fail_undr: 0.9\n');
    const r = await runCliInProcess(['--config', bad, 'config', 'show']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`evalp: the config file ${bad} is invalid: line 3: thresholds.fail_undr: unknown key\n`);
    const ok = await runCliInProcess(['--config', file, 'config', 'show', '--json']);
    expect(JSON.parse(ok.stdout).file).toEqual({ path: file, found_by: 'flag' });
  });
});
