import { CliError } from './cliError.js';

/** Where the CLI talks to: flags win over EVALP_URL / EVALP_API_KEY. */
export interface ApiTarget {
  url: string;
  key?: string;
}

export function apiTargetFrom(opts: { url?: string; key?: string }, env: NodeJS.ProcessEnv = process.env): ApiTarget {
  const url = (opts.url ?? env.EVALP_URL ?? `http://127.0.0.1:${env.EVALP_PORT ?? '7071'}`).replace(/\/+$/, '');
  const key = opts.key ?? env.EVALP_API_KEY;
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
