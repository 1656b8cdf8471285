import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiTargetFrom, type ApiTarget } from './apiClient.js';
import { cliConfigLocation } from './cliConfig.js';

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

describe('apiTargetFrom: environment > flags > config file > default', () => {
  it.each<[string, { url?: string; key?: string; connection?: string }, Record<string, string>, ApiTarget]>([
    ['nothing: the local default', {}, {}, { url: 'http://127.0.0.1:7071' }],
    ['EVALP_PORT moves the default', {}, { EVALP_PORT: '8080' }, { url: 'http://127.0.0.1:8080' }],
    ['the environment', {}, { EVALP_URL: 'http://h:1/', EVALP_API_KEY: 'evalp_env' }, { url: 'http://h:1', key: 'evalp_env' }],
    [
      'the environment wins over flags (DESIGN §8)',
      { url: 'http://flag:2', key: 'evalp_flag' },
      { EVALP_URL: 'http://h:1', EVALP_API_KEY: 'evalp_env' },
      { url: 'http://h:1', key: 'evalp_env' },
    ],
    ['flags when the environment is silent', { url: 'http://flag:2', key: 'evalp_flag' }, {}, { url: 'http://flag:2', key: 'evalp_flag' }],
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
      'EVALP_CONNECTION wins over EVALP_URL / EVALP_API_KEY (both environment)',
      {},
      { EVALP_CONFIG: profiles, EVALP_CONNECTION: 'prod', EVALP_URL: 'http://h:1', EVALP_API_KEY: 'evalp_env' },
      { url: PROD, key: 'evalp_prod' },
    ],
    [
      'EVALP_URL / EVALP_API_KEY win over --connection (environment > flags)',
      { connection: 'prod' },
      { EVALP_CONFIG: profiles, EVALP_URL: 'http://h:1', EVALP_API_KEY: 'evalp_env' },
      { url: 'http://h:1', key: 'evalp_env' },
    ],
    [
      '--key wins over the chosen connection (both flags)',
      { connection: 'prod', key: 'evalp_flag' },
      { EVALP_CONFIG: profiles },
      { url: PROD, key: 'evalp_flag' },
    ],
  ])('%s', (_label, opts, env, expected) => {
    expect(apiTargetFrom(opts, { HOME: home, ...env }, () => undefined)).toEqual(expected);
  });

  it('says on stderr when an environment variable overrides a flag, naming both', () => {
    const notices: string[] = [];
    apiTargetFrom({ url: 'http://flag:2' }, { HOME: home, EVALP_URL: 'http://h:1' }, (line) => notices.push(line));
    expect(notices).toEqual(['evalp: --url is overridden by EVALP_URL (environment variables win over flags)']);
    notices.length = 0;
    apiTargetFrom({ url: 'http://flag:2' }, { HOME: home }, (line) => notices.push(line));
    expect(notices).toEqual([]);
  });

  it('reads ~/.config/evalp/config.json (or $XDG_CONFIG_HOME/evalp/config.json) when EVALP_CONFIG is not set', () => {
    const dir = join(home, 'h2', '.config', 'evalp');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ url: PROD, key: 'evalp_home' }));
    expect(cliConfigLocation({ HOME: join(home, 'h2') })).toEqual({ path: join(dir, 'config.json'), how: 'home' });
    expect(apiTargetFrom({}, { HOME: join(home, 'h2') })).toEqual({ url: PROD, key: 'evalp_home' });
    expect(cliConfigLocation({ HOME: home, XDG_CONFIG_HOME: join(home, 'h2', '.config') })?.path).toBe(join(dir, 'config.json'));
  });

  it.each([
    ['an unknown profile', { connection: 'staging' }, { EVALP_CONFIG: profiles }, 'connection "staging" is not defined'],
    ['a profile without a config file', { connection: 'prod' }, {}, 'no config file was found'],
    ['EVALP_CONFIG naming a missing file', {}, { EVALP_CONFIG: join(home, 'missing.json') }, 'cannot read it (ENOENT)'],
    ['a file that is not JSON', {}, { EVALP_CONFIG: configFile('bad.json', '{url:') }, 'not valid YAML'],
    ['a file of the wrong shape', {}, { EVALP_CONFIG: configFile('shape.json', { url: 'not a url', token: 'x' }) }, 'token: unknown key'],
  ])('fails with a CliError for %s', (_label, opts, env, message) => {
    expect(() => apiTargetFrom(opts, { HOME: home, ...env })).toThrow(message);
  });
});
