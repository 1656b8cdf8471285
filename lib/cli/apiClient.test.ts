import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiTargetFrom, type ApiTarget } from './apiClient.js';
import { cliConfigPath } from './cliConfig.js';

const home = mkdtempSync(join(tmpdir(), 'evalp-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const PROD = 'https://evalp.example.com';
function configFile(name: string, config: unknown): string {
  const path = join(home, name);
  writeFileSync(path, typeof config === 'string' ? config : JSON.stringify(config));
  return path;
}
const simple = configFile('simple.json', { url: `${PROD}/`, key: 'evalp_file' });
const profiles = configFile('profiles.json', {
  default_profile: 'local',
  profiles: { local: { url: 'http://127.0.0.1:7071', key: 'evalp_local' }, prod: { url: PROD, key: 'evalp_prod' } },
});
const keyOnly = configFile('key-only.json', { key: 'evalp_default_url' });

describe('apiTargetFrom: flags > environment > config file > default', () => {
  it.each<[string, { url?: string; key?: string; connection?: string }, Record<string, string>, ApiTarget]>([
    ['nothing: the local default', {}, {}, { url: 'http://127.0.0.1:7071' }],
    ['EVALP_PORT moves the default', {}, { EVALP_PORT: '8080' }, { url: 'http://127.0.0.1:8080' }],
    ['the environment', {}, { EVALP_URL: 'http://h:1/', EVALP_API_KEY: 'evalp_env' }, { url: 'http://h:1', key: 'evalp_env' }],
    [
      'flags win over the environment',
      { url: 'http://flag:2', key: 'evalp_flag' },
      { EVALP_URL: 'http://h:1', EVALP_API_KEY: 'evalp_env' },
      { url: 'http://flag:2', key: 'evalp_flag' },
    ],
    ['the config file when nothing else is set', {}, { EVALP_CONFIG: simple }, { url: PROD, key: 'evalp_file' }],
    ['the environment wins over the file', {}, { EVALP_CONFIG: simple, EVALP_API_KEY: 'evalp_env' }, { url: PROD, key: 'evalp_env' }],
    ['a file key is never sent to another URL', { url: 'http://elsewhere:3' }, { EVALP_CONFIG: simple }, { url: 'http://elsewhere:3' }],
    ['nor to EVALP_URL', {}, { EVALP_CONFIG: simple, EVALP_URL: 'http://elsewhere:3' }, { url: 'http://elsewhere:3' }],
    [
      'a key without a URL belongs to the default URL',
      {},
      { EVALP_CONFIG: keyOnly },
      { url: 'http://127.0.0.1:7071', key: 'evalp_default_url' },
    ],
    ['the default profile', {}, { EVALP_CONFIG: profiles }, { url: 'http://127.0.0.1:7071', key: 'evalp_local' }],
    ['--connection', { connection: 'prod' }, { EVALP_CONFIG: profiles }, { url: PROD, key: 'evalp_prod' }],
    ['EVALP_CONNECTION', {}, { EVALP_CONFIG: profiles, EVALP_CONNECTION: 'prod' }, { url: PROD, key: 'evalp_prod' }],
    [
      'a chosen profile wins over EVALP_URL / EVALP_API_KEY',
      { connection: 'prod' },
      { EVALP_CONFIG: profiles, EVALP_URL: 'http://h:1', EVALP_API_KEY: 'evalp_env' },
      { url: PROD, key: 'evalp_prod' },
    ],
    [
      'flags win over a chosen profile',
      { connection: 'prod', key: 'evalp_flag' },
      { EVALP_CONFIG: profiles },
      { url: PROD, key: 'evalp_flag' },
    ],
  ])('%s', (_label, opts, env, expected) => {
    expect(apiTargetFrom(opts, { HOME: home, ...env })).toEqual(expected);
  });

  it('reads ~/.config/evalp/config.json (or $XDG_CONFIG_HOME/evalp/config.json) when EVALP_CONFIG is not set', () => {
    const dir = join(home, 'h2', '.config', 'evalp');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ url: PROD, key: 'evalp_home' }));
    expect(cliConfigPath({ HOME: join(home, 'h2') })).toBe(join(dir, 'config.json'));
    expect(apiTargetFrom({}, { HOME: join(home, 'h2') })).toEqual({ url: PROD, key: 'evalp_home' });
    expect(cliConfigPath({ HOME: home, XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/evalp/config.json');
  });

  it.each([
    ['an unknown profile', { connection: 'staging' }, { EVALP_CONFIG: profiles }, 'profile "staging" is not in'],
    ['a profile without a config file', { connection: 'prod' }, {}, 'there is no config file'],
    ['EVALP_CONFIG naming a missing file', {}, { EVALP_CONFIG: join(home, 'missing.json') }, 'cannot read the config file'],
    ['a file that is not JSON', {}, { EVALP_CONFIG: configFile('bad.json', '{url:') }, 'is not valid JSON'],
    ['a file of the wrong shape', {}, { EVALP_CONFIG: configFile('shape.json', { url: 'not a url', token: 'x' }) }, 'is invalid: url:'],
  ])('fails with a CliError for %s', (_label, opts, env, message) => {
    expect(() => apiTargetFrom(opts, { HOME: home, ...env })).toThrow(message);
  });
});
