import type { FieldError } from './types.js';

/** An answer that was not 2xx: the problem+json detail and field errors, or the status text. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [],
    readonly body: unknown = undefined,
  ) {
    super(message);
  }
}

/** Gives the Authorization header value of the signed-in principal (an API key or an Entra ID access token). */
export type CredentialSource = () => Promise<string | undefined>;

let credential: CredentialSource = async () => undefined;
let onUnauthorized: () => void = () => {};

export function useCredential(source: CredentialSource, unauthorized: () => void): void {
  credential = source;
  onUnauthorized = unauthorized;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  etag: string | null;
}

/** Calls `/api/<path>` with the principal's credential; throws ApiProblem for a non-2xx answer. */
export async function api<T>(
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; contentType?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const auth = await credential();
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...options.headers };
  if (auth) headers.authorization = auth;
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] = options.contentType ?? 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`/api/${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let json: unknown = undefined;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
  }
  if (!res.ok) {
    if (res.status === 401) onUnauthorized();
    const problem = (json ?? {}) as { detail?: string; title?: string; errors?: FieldError[] };
    throw new ApiProblem(res.status, problem.detail ?? problem.title ?? `${res.status} ${res.statusText}`, problem.errors ?? [], json);
  }
  return { status: res.status, body: json as T, etag: res.headers.get('etag') };
}

export const get = async <T>(path: string): Promise<T> => (await api<T>('GET', path)).body;

/** A query string of the set values. */
export function qs(params: Record<string, string | number | undefined | null>): string {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '') as Array<[string, string | number]>;
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}` : '';
}
