import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { ConfigFileSchema, fromLegacy, LegacyConnectionFileSchema, type ConfigFile } from './configFileSchema.js';

export const CONFIG_FILE_NAME = 'evalplatform.config.yaml';

type Env = Readonly<Record<string, string | undefined>>;

/** A config file that cannot be read or is not valid: the message names the file, the line and the key path. */
export class ConfigFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: Array<{ path: string; line?: number; message: string }>,
  ) {
    super(
      `the config file ${file} is invalid: ${problems
        .map((p) => `${p.line !== undefined ? `line ${p.line}: ` : ''}${p.path || '(root)'}: ${p.message}`)
        .join('; ')}`,
    );
    this.name = 'ConfigFileError';
  }
}

export interface LoadedConfigFile {
  path: string;
  config: ConfigFile;
}

/** How the file was found: `flag` (--config), `env` (EVALP_CONFIG), `search` (the directory or a parent), `home`. */
export interface ConfigFileLocation {
  path: string;
  how: 'flag' | 'env' | 'search' | 'home';
}

/**
 * Where the config file is: `--config FILE`, else `EVALP_CONFIG`, else `evalplatform.config.yaml` in `cwd` or the
 * nearest parent directory, else the user's file (`$XDG_CONFIG_HOME/evalp/config.yaml|json`, default
 * `~/.config/evalp/`). Undefined when there is none (every key has a default).
 */
export function findConfigFile(options: { flag?: string; env?: Env; cwd?: string } = {}): ConfigFileLocation | undefined {
  const env = options.env ?? process.env;
  if (options.flag) return { path: resolve(options.flag), how: 'flag' };
  if (env.EVALP_CONFIG) return { path: resolve(env.EVALP_CONFIG), how: 'env' };
  for (let dir = resolve(options.cwd ?? process.cwd()); ; dir = dirname(dir)) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    if (existsSync(candidate)) return { path: candidate, how: 'search' };
    if (dirname(dir) === dir) break;
  }
  const userDir = join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'evalp');
  for (const name of ['config.yaml', 'config.json']) if (existsSync(join(userDir, name))) return { path: join(userDir, name), how: 'home' };
  return undefined;
}

/**
 * Reads and validates a config file (YAML; JSON is YAML too). The earlier JSON connection file
 * (`{url, key, default_profile, profiles}`) is accepted and read as `connection` / `connections`.
 * Throws ConfigFileError naming the file, the line and the key path of each problem.
 */
export function loadConfigFile(path: string): LoadedConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigFileError(path, [
      { path: '', message: `cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` },
    ]);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new ConfigFileError(
      path,
      doc.errors.map((e) => ({
        path: '',
        line: lineCounter.linePos(e.pos[0]).line,
        message: `not valid YAML (${e.message.split('\n')[0]})`,
      })),
    );
  }
  const data: unknown = doc.toJS() ?? {};
  const legacy = isLegacy(data) ? LegacyConnectionFileSchema.safeParse(data) : undefined;
  if (legacy?.success) return { path, config: fromLegacy(legacy.data) };
  const parsed = ConfigFileSchema.safeParse(data);
  if (parsed.success) return { path, config: parsed.data };
  throw new ConfigFileError(path, problemsOf(parsed.error, doc, lineCounter));
}

function isLegacy(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const keys = Object.keys(data);
  return keys.length > 0 && keys.every((k) => ['url', 'key', 'default_profile', 'profiles'].includes(k));
}

/** Each zod issue with its key path and the line of the key in the file (unknown keys: the line of that key). */
function problemsOf(error: z.ZodError, doc: Document, lines: LineCounter): Array<{ path: string; line?: number; message: string }> {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : undefined;
    if (unknownKeys)
      return unknownKeys.map((key) => ({
        path: [...path, key].join('.'),
        ...lineOf(doc, lines, [...path, key]),
        message: 'unknown key',
      }));
    return [{ path: path.join('.'), ...lineOf(doc, lines, path), message: issue.message }];
  });
}

/** The line of the deepest node of `path` present in the document (the key's line for a map entry). */
function lineOf(doc: Document, lines: LineCounter, path: string[]): { line?: number } {
  let node: unknown = doc.contents;
  let offset: number | undefined = (doc.contents as { range?: [number] } | null)?.range?.[0];
  for (const key of path) {
    if (!isMap(node)) break;
    const pair = node.items.find((p) => String((p.key as { value?: unknown } | null)?.value) === key);
    if (!pair) break;
    offset = (pair.key as { range?: [number] } | null)?.range?.[0] ?? offset;
    node = pair.value;
  }
  return offset === undefined ? {} : { line: lines.linePos(offset).line };
}
