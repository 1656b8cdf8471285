import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigFileError, findConfigFile, loadConfigFile } from './configFile.js';
import { maskSecret, platformEnvFromFile, resolveEffectiveConfig, type EffectiveValue } from './effectiveConfig.js';

const dir = mkdtempSync(join(tmpdir(), 'evalp-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
};

const FULL = `# the project's settings
connection:
  url: https://evalp.example.com
  key: evalp_0123456789abcdef
profile: ci
thresholds:
  fail_under: 0.9
judge:
  kind: openai
  model: gpt-4o-mini
  openai:
    api_key: sk-file-secret-000000000
notifications:
  public_url: https://dash.example.com
  email:
    from: evalp@example.com
    smtp:
      host: smtp.example.com
      port: 2525
      password: hunter2
clients:
  acme:
    profile: nightly
    judge:
      model: gpt-4o
`;
const full = loadConfigFile(write('full/evalplatform.config.yaml', FULL));
const pick = (values: EffectiveValue[], key: string) => {
  const v = values.find((x) => x.key === key)!;
  return { value: v.value, source: v.source };
};

describe('precedence: environment > flags > file > defaults', () => {
  it.each<[string, Record<string, string>, Record<string, string>, { value: unknown; source: string }]>([
    ['default', {}, {}, { value: 'http://127.0.0.1:7071', source: 'default' }],
    ['file', {}, {}, { value: 'https://evalp.example.com', source: 'file:connection.url' }],
    ['flag over file', {}, { '--url': 'http://flag:1' }, { value: 'http://flag:1', source: 'flag --url' }],
    ['env over flag', { EVALP_URL: 'http://env:2' }, { '--url': 'http://flag:1' }, { value: 'http://env:2', source: 'env EVALP_URL' }],
  ])('connection.url from %s', (label, env, flags, expected) => {
    const values = resolveEffectiveConfig({ env, flags, ...(label === 'default' ? {} : { file: full }) });
    expect(pick(values, 'connection.url')).toEqual(expected);
  });

  it('marks a flag an environment variable overrode (for the notice) and only then', () => {
    const both = resolveEffectiveConfig({ file: full, env: { EVALP_PROFILE: 'release' }, flags: { '--profile': 'nightly' } });
    expect(both.find((v) => v.key === 'profile')).toMatchObject({
      value: 'release',
      source: 'env EVALP_PROFILE',
      overridden_flag: '--profile',
    });
    const flagOnly = resolveEffectiveConfig({ file: full, env: {}, flags: { '--profile': 'nightly' } });
    expect(flagOnly.find((v) => v.key === 'profile')).toEqual({
      key: 'profile',
      value: 'nightly',
      source: 'flag --profile',
      secret: false,
    });
  });

  it('converts environment text to the key type and names the variable when it cannot', () => {
    const values = resolveEffectiveConfig({ env: { EVALP_FAIL_UNDER: '0.75', EVALP_SMTP_SECURE: 'yes' } });
    expect(pick(values, 'thresholds.fail_under')).toEqual({ value: 0.75, source: 'env EVALP_FAIL_UNDER' });
    expect(pick(values, 'notifications.email.smtp.secure')).toEqual({ value: true, source: 'env EVALP_SMTP_SECURE' });
    expect(() => resolveEffectiveConfig({ env: { EVALP_SMTP_PORT: 'twenty' } })).toThrow('EVALP_SMTP_PORT must be a number (got "twenty")');
  });

  it('applies clients.<id> over the top level of the file, but not over flags or the environment', () => {
    const values = resolveEffectiveConfig({ file: full, env: {}, client: 'acme' });
    expect(pick(values, 'profile')).toEqual({ value: 'nightly', source: 'file:clients.acme.profile' });
    expect(pick(values, 'judge.model')).toEqual({ value: 'gpt-4o', source: 'file:clients.acme.judge.model' });
    expect(pick(values, 'judge.kind')).toEqual({ value: 'openai', source: 'file:judge.kind' });
    const flagged = resolveEffectiveConfig({ file: full, env: {}, client: 'acme', flags: { '--profile': 'release' } });
    expect(pick(flagged, 'profile')).toEqual({ value: 'release', source: 'flag --profile' });
  });

  it('named connections: EVALP_CONNECTION (environment), --connection (flag), default_connection (file)', () => {
    const file = loadConfigFile(
      write(
        'conn.yaml',
        'default_connection: local\nconnections:\n  local: {url: "http://127.0.0.1:7071"}\n  prod: {url: "https://p.example.com"}\n',
      ),
    );
    expect(pick(resolveEffectiveConfig({ file, env: {} }), 'connection.url')).toEqual({
      value: 'http://127.0.0.1:7071',
      source: 'file:connections.local.url',
    });
    expect(pick(resolveEffectiveConfig({ file, env: {}, connection: 'prod' }), 'connection.url').source).toBe(
      'flag --connection (file:connections.prod.url)',
    );
    expect(
      pick(resolveEffectiveConfig({ file, env: { EVALP_CONNECTION: 'prod' }, flags: { '--url': 'http://x:1' } }), 'connection.url'),
    ).toEqual({
      value: 'https://p.example.com',
      source: 'env EVALP_CONNECTION (file:connections.prod.url)',
    });
  });
});

describe('the file', () => {
  it('is found by --config, EVALP_CONFIG, then evalplatform.config.yaml here or in a parent directory', () => {
    const deep = join(dir, 'full', 'a', 'b');
    mkdirSync(deep, { recursive: true });
    expect(findConfigFile({ env: { HOME: dir }, cwd: deep })).toEqual({
      path: join(dir, 'full', 'evalplatform.config.yaml'),
      how: 'search',
    });
    expect(findConfigFile({ env: { HOME: dir, EVALP_CONFIG: '/x/y.yaml' }, cwd: deep })).toEqual({ path: '/x/y.yaml', how: 'env' });
    expect(findConfigFile({ flag: '/z.yaml', env: { EVALP_CONFIG: '/x/y.yaml' } })).toEqual({ path: '/z.yaml', how: 'flag' });
    expect(findConfigFile({ env: { HOME: join(dir, 'nohome') }, cwd: join(dir, 'nohome') })).toBeUndefined();
  });

  it.each([
    ['an unknown key, with its line', 'profile: ci\njudge:\n  modle: gpt-4o\n', 'line 3: judge.modle: unknown key'],
    [
      'a bad value, with its line',
      'connection:\n  url: http://ok\nthresholds:\n  fail_under: 2\n',
      'line 4: thresholds.fail_under: Too big',
    ],
    ['a profile that does not exist', 'profile: weekly\n', 'line 1: profile: Invalid option'],
    ['a per-client key', 'clients:\n  acme:\n    profile: ci\n    color: red\n', 'line 4: clients.acme.color: unknown key'],
    // alert thresholds are the client's own (API), never silently ignored file settings
    ['alert thresholds', 'thresholds:\n  alerts:\n    accuracy_drop_warning_pts: 3\n', 'line 2: thresholds.alerts: unknown key'],
    ['YAML that does not parse', 'judge:\n  model: [gpt\n', 'not valid YAML'],
  ])('names the file, line and key path for %s', (_label, text, message) => {
    const path = write(`bad-${_label.replace(/\W+/g, '-')}.yaml`, text);
    let error: unknown;
    try {
      loadConfigFile(path);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigFileError);
    expect((error as Error).message).toContain(`the config file ${path} is invalid: `);
    expect((error as Error).message).toContain(message);
  });

  it('gives the platform the settings it reads that the environment does not set', () => {
    expect(platformEnvFromFile(full, { EVALP_SMTP_HOST: 'env.example.com' })).toEqual({
      OPENAI_API_KEY: 'sk-file-secret-000000000',
      EVALP_PUBLIC_URL: 'https://dash.example.com',
      EVALP_EMAIL_FROM: 'evalp@example.com',
      EVALP_SMTP_PORT: '2525',
      EVALP_SMTP_PASSWORD: 'hunter2',
    });
  });

  it('masks secrets', () => {
    expect(maskSecret('evalp_0123456789abcdef')).toBe('****cdef');
    expect(maskSecret('hunter2')).toBe('****');
    expect(maskSecret(undefined)).toBeUndefined();
  });
});
