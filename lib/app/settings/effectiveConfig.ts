import type { ConfigFile } from './configFileSchema.js';
import { ConfigFileError, type LoadedConfigFile } from './configFile.js';
import { CONFIG_KEYS, type ConfigKey } from './configKeys.js';

type Env = Readonly<Record<string, string | undefined>>;
export type ConfigValue = string | number | boolean;

/** One effective value and where it came from: `env NAME`, `flag --x`, `file:<path>` (the key in the file) or `default`. */
export interface EffectiveValue {
  key: string;
  value: ConfigValue | undefined;
  source: string;
  secret: boolean;
  /** a flag that was given but lost to an environment variable */
  overridden_flag?: string;
}

export interface ResolveOptions {
  file?: LoadedConfigFile;
  env?: Env;
  /** flag values by flag name (`{'--url': 'http://...'}`); undefined entries are flags not given */
  flags?: Readonly<Record<string, ConfigValue | undefined>>;
  /** apply `clients.<id>` of the file (a submitted run's client) */
  client?: string;
  /** the named connection (`--connection`); `EVALP_CONNECTION` in env wins over it */
  connection?: string;
}

/** The value at a dotted path of the file. */
export function fileValue(config: ConfigFile | undefined, path: string): unknown {
  let node: unknown = config;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Text (an environment variable) as the key's kind; a ConfigFileError-like message names the variable when it is not. */
export function convert(key: ConfigKey, text: string, where: string): ConfigValue {
  if (key.kind === 'number') {
    const n = Number(text);
    if (text.trim() === '' || !Number.isFinite(n)) throw new ConfigValueError(`${where} must be a number (got "${text}")`);
    return n;
  }
  if (key.kind === 'boolean') {
    if (/^(true|1|yes|on)$/i.test(text.trim())) return true;
    if (/^(false|0|no|off)$/i.test(text.trim())) return false;
    throw new ConfigValueError(`${where} must be true or false (got "${text}")`);
  }
  return text;
}

export class ConfigValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigValueError';
  }
}

/**
 * The effective configuration: for each key, environment > flag > file > default (DESIGN §8). In the file,
 * `clients.<client>.<key>` wins over `<key>` for keys a client may override, and a named connection
 * (`EVALP_CONNECTION`, else `--connection`, else `default_connection`) gives `connection.url` / `.key`:
 * `EVALP_CONNECTION` at the environment's level, `--connection` at the flags', `default_connection` as the file.
 */
export function resolveEffectiveConfig(options: ResolveOptions = {}): EffectiveValue[] {
  const env = options.env ?? process.env;
  const flags = options.flags ?? {};
  const config = options.file?.config;
  const envConnection = env.EVALP_CONNECTION || undefined;
  const named = envConnection ?? options.connection;
  if (named !== undefined && !config?.connections?.[named]) {
    const where = options.file ? options.file.path : 'no config file was found';
    const known = Object.keys(config?.connections ?? {}).join(', ') || 'none';
    throw new ConfigFileError(options.file?.path ?? '(none)', [
      { path: `connections.${named}`, message: `connection "${named}" is not defined (${where}; connections: ${known})` },
    ]);
  }
  const out: EffectiveValue[] = [];
  for (const key of CONFIG_KEYS) {
    const secret = key.secret === true;
    const connectionPart = key.path.startsWith('connection.') ? key.path.slice('connection.'.length) : undefined;
    const candidates: Array<{ value: unknown; source: string }> = [];
    // environment
    if (connectionPart && envConnection)
      candidates.push({
        value: fileValue(config, `connections.${envConnection}.${connectionPart}`),
        source: `env EVALP_CONNECTION (file:connections.${envConnection}.${connectionPart})`,
      });
    const envText = key.env ? env[key.env] : undefined;
    if (key.env && envText !== undefined && envText !== '')
      candidates.push({ value: convert(key, envText, key.env), source: `env ${key.env}` });
    const envWins = candidates.find((c) => c.value !== undefined);
    // flags
    const flag = key.flag ? flags[key.flag] : undefined;
    if (key.flag && flag !== undefined)
      candidates.push({ value: typeof flag === 'string' ? convert(key, flag, key.flag) : flag, source: `flag ${key.flag}` });
    if (connectionPart && options.connection && !envConnection)
      candidates.push({
        value: fileValue(config, `connections.${options.connection}.${connectionPart}`),
        source: `flag --connection (file:connections.${options.connection}.${connectionPart})`,
      });
    // file
    if (options.client && key.perClient) {
      const path = `clients.${options.client}.${key.path}`;
      candidates.push({ value: fileValue(config, path), source: `file:${path}` });
    }
    if (connectionPart && config?.default_connection && named === undefined) {
      const path = `connections.${config.default_connection}.${connectionPart}`;
      candidates.push({ value: fileValue(config, path), source: `file:${path}` });
    }
    candidates.push({ value: fileValue(config, key.path), source: `file:${key.path}` });
    candidates.push({ value: key.default, source: 'default' });
    const chosen = candidates.find((c) => c.value !== undefined) ?? { value: undefined, source: 'unset' };
    out.push({
      key: key.path,
      value: chosen.value as ConfigValue | undefined,
      source: chosen.source,
      secret,
      ...(envWins && key.flag && flag !== undefined ? { overridden_flag: key.flag } : {}),
    });
  }
  return out;
}

/** A secret as `evalp config show` prints it: its length hidden, the last 4 characters kept when it is long. */
export function maskSecret(value: ConfigValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  return text.length >= 16 ? `****${text.slice(-4)}` : '****';
}

/** The value of `key` in an effective configuration. */
export function effectiveValue(values: readonly EffectiveValue[], key: string): ConfigValue | undefined {
  return values.find((v) => v.key === key)?.value;
}

/**
 * For the platform at start: the environment plus the settings of `reader: 'platform'` keys the file sets and the
 * environment does not (environment variables keep winning). The platform reads its settings from the result.
 */
export function platformEnvFromFile(file: LoadedConfigFile | undefined, env: Env = process.env): Record<string, string> {
  const added: Record<string, string> = {};
  if (!file) return added;
  for (const key of CONFIG_KEYS) {
    if (key.reader !== 'platform' || !key.env || (env[key.env] !== undefined && env[key.env] !== '')) continue;
    const value = fileValue(file.config, key.path);
    if (value !== undefined) added[key.env] = String(value);
  }
  return added;
}
