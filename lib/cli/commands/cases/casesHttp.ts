import type { ApiTarget } from '../../apiClient.js';
import { CliError } from '../../cliError.js';

interface Problem {
  detail?: string;
  errors?: Array<{ path: string; message: string; row?: number; id?: string; field?: string }>;
  error_count?: number;
}

/** One request to the management API with any body; network failures and problem answers become CliErrors. */
export async function apiFetch(
  target: ApiTarget,
  method: string,
  path: string,
  init: { body?: string; contentType?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`${target.url}/api/${path}`, {
      method,
      headers: {
        ...(init.contentType ? { 'content-type': init.contentType } : {}),
        ...(target.key ? { authorization: `Bearer ${target.key}` } : {}),
      },
      ...(init.body !== undefined ? { body: init.body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  } catch (err) {
    throw new CliError(`cannot reach ${target.url} (${(err as Error).message}); is the platform running (evalp start)?`);
  }
  if (!res.ok) throw await problemError(method, path, res);
  return res;
}

/** A problem answer as a CliError: its detail, then up to 20 of its errors (row errors as `row 7 (id): field: reason`). */
async function problemError(method: string, path: string, res: Response): Promise<CliError> {
  const text = await res.text();
  let problem: Problem | undefined;
  try {
    problem = JSON.parse(text) as Problem;
  } catch {
    problem = undefined;
  }
  const errors = problem?.errors ?? [];
  const lines = errors
    .slice(0, 20)
    .map((e) => (e.row !== undefined ? `  ${rowLabel(e.row, e.id)}: ${e.field || '(row)'}: ${e.message}` : `  ${e.path}: ${e.message}`));
  const total = problem?.error_count ?? errors.length;
  if (total > lines.length) lines.push(`  ... and ${total - lines.length} more`);
  return new CliError(
    `${method} ${path.split('?')[0]} answered ${res.status}: ${problem?.detail ?? text}${lines.length ? `\n${lines.join('\n')}` : ''}`,
  );
}

export function rowLabel(row: number, id?: string): string {
  return `row ${row}${id ? ` (${id})` : ''}`;
}
