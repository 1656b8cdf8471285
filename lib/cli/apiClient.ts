import { CliError } from './cliError.js';
import { cliSettings } from './cliConfig.js';

/** Where the CLI talks to. */
export interface ApiTarget {
  url: string;
  key?: string;
}

/**
 * Where the CLI connects, by the one precedence of the configuration (DESIGN §8): environment (`EVALP_URL`,
 * `EVALP_API_KEY`; `EVALP_CONNECTION` names a connection of the config file and wins over them) > flags (`--url`,
 * `--key`; `--connection NAME`) > the config file (`connection`, or `connections.<default_connection>`) >
 * `http://127.0.0.1:$EVALP_PORT` (7071). A flag that loses to an environment variable is said on stderr. A key
 * from the config file is sent only to the URL it is stored with (the default URL when it has none), so a URL
 * from elsewhere never receives it.
 */
export function apiTargetFrom(
  opts: { url?: string; key?: string; connection?: string },
  env: Readonly<Record<string, string | undefined>> = process.env,
  notice?: (line: string) => void,
): ApiTarget {
  const settings = cliSettings({
    env,
    flags: { '--url': opts.url, '--key': opts.key },
    ...(opts.connection ? { connection: opts.connection } : {}),
    ...(notice ? { notice } : {}),
  });
  const trim = (u: string): string => u.replace(/\/+$/, '');
  const defaultUrl = `http://127.0.0.1:${env.EVALP_PORT ?? '7071'}`;
  const urlSource = settings.sourceOf('connection.url');
  const url = trim(urlSource === 'default' ? defaultUrl : String(settings.get('connection.url')));
  const key = settings.get('connection.key') as string | undefined;
  const keySource = settings.sourceOf('connection.key') ?? '';
  if (key === undefined) return { url };
  // a key from the file belongs to the URL stored beside it in the file
  if (keySource.includes('file:') && trim(storedUrlBeside(settings.file?.config ?? {}, keySource) ?? defaultUrl) !== url) return { url };
  return { url, key };
}

/** The URL stored with a file key (`connection.url` or `connections.<name>.url`). */
function storedUrlBeside(
  config: { connection?: { url?: string }; connections?: Record<string, { url?: string }> },
  keySource: string,
): string | undefined {
  const named = /connections\.([^.]+)\.key/.exec(keySource);
  if (named) return config.connections?.[named[1]!]?.url;
  return config.connection?.url;
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
