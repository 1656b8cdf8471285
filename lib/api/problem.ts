import { ZodError } from 'zod';
import { StoreError } from '../ports/index.js';
import { RunConfigurationError, UnknownReferenceError } from '../runs/index.js';

export interface FieldError {
  /** dotted path of the failing field, e.g. `body.trigger_metadata.pr_number` */
  path: string;
  message: string;
}

/** An error the API answers as application/problem+json (RFC 9457) with the failing field paths. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export interface ProblemResponse {
  status: number;
  headers: Record<string, string>;
  body: { type: string; title: string; status: number; detail: string; instance?: string; errors?: FieldError[] };
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** Maps any error to a problem response: ApiError as is, validation to 400/422, store errors to 404/409/412, the rest to 500 without details. */
export function toProblem(err: unknown, instance?: string, location = 'body'): ProblemResponse {
  const make = (status: number, detail: string, errors: FieldError[] = [], headers: Record<string, string> = {}): ProblemResponse => ({
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
    body: {
      type: 'about:blank',
      title: TITLES[status] ?? 'Error',
      status,
      detail,
      ...(instance ? { instance } : {}),
      ...(errors.length ? { errors } : {}),
    },
  });
  if (err instanceof ApiError) return make(err.status, err.message, err.errors, err.headers);
  if (err instanceof ZodError) {
    const errors = err.issues.map((i) => ({ path: [location, ...i.path.map(String)].join('.'), message: i.message }));
    return make(400, `${errors.length} invalid field(s): ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
  }
  if (err instanceof UnknownReferenceError) return make(422, err.message, [{ path: `body.${err.field}`, message: 'does not exist' }]);
  if (err instanceof RunConfigurationError)
    return make(
      422,
      err.message,
      err.problems.map((p) => ({ path: p.field, message: p.message })),
    );
  if (err instanceof StoreError) return make(err.code === 'not_found' ? 404 : err.code === 'conflict' ? 409 : 412, err.message);
  return make(500, 'the request failed on the server; see the server log');
}
