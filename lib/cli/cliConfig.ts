import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { CliError } from './cliError.js';

const ConnectionSchema = z.object({ url: z.string().url().optional(), key: z.string().min(1).optional() }).strict();

/**
 * The CLI's config file: a connection (`{url, key}`) and/or named profiles, e.g.
 * `{"default_profile": "local", "profiles": {"local": {"url": "http://127.0.0.1:7071", "key": "evalp_..."}, "prod": {...}}}`.
 */
export const CliConfigSchema = ConnectionSchema.extend({
  default_profile: z.string().min(1).optional(),
  profiles: z.record(z.string().min(1), ConnectionSchema).default({}),
}).strict();
export type CliConfig = z.infer<typeof CliConfigSchema>;
export type CliConnection = z.infer<typeof ConnectionSchema>;

type Env = Readonly<Record<string, string | undefined>>;

/** `EVALP_CONFIG`, else `$XDG_CONFIG_HOME/evalp/config.json`, else `~/.config/evalp/config.json`. */
export function cliConfigPath(env: Env = process.env): string {
  if (env.EVALP_CONFIG) return env.EVALP_CONFIG;
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'evalp', 'config.json');
}

/**
 * Reads the config file: undefined when the default file does not exist; a CliError naming the file when it is
 * not valid JSON or not the schema's shape, or when `EVALP_CONFIG` names a file that does not exist.
 */
export function readCliConfig(env: Env = process.env): { path: string; config: CliConfig } | undefined {
  const path = cliConfigPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !env.EVALP_CONFIG) return undefined;
    throw new CliError(`cannot read the config file ${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CliError(`the config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = CliConfigSchema.safeParse(json);
  if (!parsed.success)
    throw new CliError(
      `the config file ${path} is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  return { path, config: parsed.data };
}

/** The connection the config gives for a profile (the named one, else `default_profile`, else the top level). */
export function connectionFrom(file: { path: string; config: CliConfig }, profile: string | undefined): CliConnection {
  const { config } = file;
  const name = profile ?? config.default_profile;
  if (name === undefined) return { ...(config.url ? { url: config.url } : {}), ...(config.key ? { key: config.key } : {}) };
  const chosen = config.profiles[name];
  if (!chosen)
    throw new CliError(`profile "${name}" is not in ${file.path} (profiles: ${Object.keys(config.profiles).join(', ') || 'none'})`);
  return { ...(config.url ? { url: config.url } : {}), ...(config.key ? { key: config.key } : {}), ...chosen };
}
