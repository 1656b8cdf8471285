import { isRetryableStatus, retryAfterInMs } from '../../resilience/index.js';

export interface WebhookAnswer {
  ok: boolean;
  /** the HTTP status; null when no answer came (network error, timeout) */
  status: number | null;
  /** worth another attempt: no answer, 408, 429 or 5xx */
  retryable: boolean;
  /** what the server asked for (Retry-After / retry-after-ms) */
  retryAfterInMs?: number;
  /** a short description without the URL (webhook URLs are often secrets) */
  error?: string;
}

export interface PostWebhookOptions {
  timeoutInMs?: number;
  abortSignal?: AbortSignal;
  /** the platform's outbound-policy fetch (lib/outbound); default the global fetch */
  fetch?: typeof globalThis.fetch;
}

const MAX_ERROR_BODY = 200;

/** POSTs `body` as JSON to a webhook and classifies the answer; never throws for HTTP or network failures. */
export async function postWebhook(url: string, body: unknown, options: PostWebhookOptions = {}): Promise<WebhookAnswer> {
  const timeout = AbortSignal.timeout(options.timeoutInMs ?? 10_000);
  const signal = options.abortSignal ? AbortSignal.any([timeout, options.abortSignal]) : timeout;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
      redirect: 'manual',
    });
  } catch (err) {
    options.abortSignal?.throwIfAborted();
    // refused by the outbound policy: the reason (never the URL, which may be a secret), and no retry
    if (err instanceof Error && err.name === 'OutboundRefusedError')
      return { ok: false, status: null, retryable: false, error: err.message };
    return { ok: false, status: null, retryable: true, error: describeFailure(err, timeout.aborted) };
  }
  if (response.ok) {
    await response.body?.cancel();
    return { ok: true, status: response.status, retryable: false };
  }
  const text = (await response.text().catch(() => '')).trim().slice(0, MAX_ERROR_BODY);
  const wait = retryAfterInMs(response.headers);
  return {
    ok: false,
    status: response.status,
    retryable: isRetryableStatus(response.status),
    ...(wait !== undefined ? { retryAfterInMs: wait } : {}),
    error: `HTTP ${response.status}${text ? `: ${text}` : ''}`,
  };
}

function describeFailure(err: unknown, timedOut: boolean): string {
  if (timedOut) return 'timed out';
  const cause = (err as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  return `no answer${code ? ` (${code})` : ''}`;
}
