import { CliError } from './cliError.js';
import { connectionFrom, readCliConfig } from './cliConfig.js';

/** Where the CLI talks to. */
export interface ApiTarget {
  url: string;
  key?: string;
}

/**
 * Where the CLI connects: flags (`--url`, `--key`, `--connection`) > environment (`EVALP_URL`, `EVALP_API_KEY`,
 * `EVALP_CONNECTION`) > the config file (`EVALP_CONFIG` or `~/.config/evalp/config.json`: `{url, key}` or profiles,
 * see cliConfig.ts) > `http://127.0.0.1:$EVALP_PORT` (7071). A config-file profile named by `--connection` or
 * `EVALP_CONNECTION` (`--profile` is always the stage profile ci/nightly/release) is a choice: its url and key win over EVALP_URL / EVALP_API_KEY (flags still win). A key from the config file is
 * sent only to the URL it is stored with (the default URL when it has none), so `--url` elsewhere never leaks it.
 */
export function apiTargetFrom(
  opts: { url?: string; key?: string; connection?: string },
  env: Readonly<Record<string, string | undefined>> = process.env,
): ApiTarget {
  const file = readCliConfig(env);
  const profile = opts.connection ?? (env.EVALP_CONNECTION || undefined);
  if (profile && !file)
    throw new CliError(
      `connection "${profile}" was asked for (--connection or EVALP_CONNECTION) but there is no config file (looked for EVALP_CONFIG or ~/.config/evalp/config.json)`,
    );
  const config = file ? connectionFrom(file, profile) : {};
  const trim = (u: string): string => u.replace(/\/+$/, '');
  const defaultUrl = `http://127.0.0.1:${env.EVALP_PORT ?? '7071'}`;
  // an explicitly chosen profile wins over EVALP_URL / EVALP_API_KEY; otherwise the file fills what is unset
  const url = trim(opts.url ?? (profile ? config.url : undefined) ?? env.EVALP_URL ?? config.url ?? defaultUrl);
  const configKey = config.key !== undefined && trim(config.url ?? defaultUrl) === url ? config.key : undefined;
  const key = opts.key ?? (profile ? configKey : undefined) ?? env.EVALP_API_KEY ?? configKey;
  return key ? { url, key } : { url };
}

/** A small JSON client for the management API; problem+json answers become CliErrors with the detail. */
export class ApiClient {
  constructor(private readonly target: ApiTarget) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.target.url}/api/${path.replace(/^\/+/, '')}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(this.target.key ? { authorization: `Bearer ${this.target.key}` } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      throw new CliError(`cannot reach ${this.target.url} (${(err as Error).message}); is the platform running (evalp start)?`);
    }
    const text = await res.text();
    const json = text ? (JSON.parse(text) as unknown) : undefined;
    if (!res.ok) {
      const p = json as { detail?: string; errors?: Array<{ path: string; message: string }> } | undefined;
      const fields = p?.errors?.length ? `\n${p.errors.map((e) => `  ${e.path}: ${e.message}`).join('\n')}` : '';
      throw new CliError(`${method} ${path} answered ${res.status}: ${p?.detail ?? text}${fields}`);
    }
    return json as T;
  }
}
