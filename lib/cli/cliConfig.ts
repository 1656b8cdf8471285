import {
  ConfigFileError,
  ConfigValueError,
  findConfigFile,
  loadConfigFile,
  resolveEffectiveConfig,
  type ConfigFileLocation,
  type ConfigValue,
  type EffectiveValue,
  type LoadedConfigFile,
} from '../app/index.js';
import { CliError } from './cliError.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `evalp --config FILE <command>`: set by main.ts before the command runs (the file's place only, no value). */
let configFlag: string | undefined;
export function setConfigFileFlag(path: string | undefined): void {
  configFlag = path;
}

/** The config file in use: `--config`, `EVALP_CONFIG`, `evalplatform.config.yaml` here or above, the user's file. */
export function cliConfigLocation(env: Env = process.env, cwd?: string): ConfigFileLocation | undefined {
  return findConfigFile({ ...(configFlag ? { flag: configFlag } : {}), env, ...(cwd ? { cwd } : {}) });
}

/** Reads the config file (undefined when there is none); a CliError (exit 2) naming the file, line and key otherwise. */
export function readCliConfig(env: Env = process.env, cwd?: string): LoadedConfigFile | undefined {
  const location = cliConfigLocation(env, cwd);
  if (!location) return undefined;
  try {
    return loadConfigFile(location.path);
  } catch (err) {
    if (err instanceof ConfigFileError) throw new CliError(err.message);
    throw err;
  }
}

export interface CliSettings {
  file: LoadedConfigFile | undefined;
  values: EffectiveValue[];
  get(key: string): ConfigValue | undefined;
  sourceOf(key: string): string | undefined;
}

/**
 * The effective configuration of one command: environment > flags > config file > defaults. A flag that loses
 * to an environment variable is said on stderr (`notice`, default stderr) naming both, so nobody is surprised.
 */
export function cliSettings(
  options: {
    flags?: Readonly<Record<string, ConfigValue | undefined>>;
    client?: string;
    connection?: string;
    env?: Env;
    cwd?: string;
    notice?: (line: string) => void;
  } = {},
): CliSettings {
  const env = options.env ?? process.env;
  const file = readCliConfig(env, options.cwd);
  let values: EffectiveValue[];
  try {
    values = resolveEffectiveConfig({
      env,
      ...(file ? { file } : {}),
      ...(options.flags ? { flags: options.flags } : {}),
      ...(options.client ? { client: options.client } : {}),
      ...(options.connection ? { connection: options.connection } : {}),
    });
  } catch (err) {
    if (err instanceof ConfigFileError || err instanceof ConfigValueError) throw new CliError(err.message);
    throw err;
  }
  const notice = options.notice ?? ((line: string) => process.stderr.write(`${line}\n`));
  for (const v of values)
    if (v.overridden_flag)
      notice(`evalp: ${v.overridden_flag} is overridden by ${v.source.replace(/^env /, '')} (environment variables win over flags)`);
  return {
    file,
    values,
    get: (key) => values.find((v) => v.key === key)?.value,
    sourceOf: (key) => values.find((v) => v.key === key)?.source,
  };
}
