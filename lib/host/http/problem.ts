/** An RFC 9457 problem document, the error body of every response the host itself produces. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  [extension: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Builds a problem document; never carries a stack trace. */
export function problem(status: number, detail: string, extensions: Record<string, unknown> = {}): ProblemDetails {
  return { type: 'about:blank', title: TITLES[status] ?? 'Error', status, detail, ...extensions };
}
