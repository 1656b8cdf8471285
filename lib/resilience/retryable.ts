/** HTTP statuses worth another attempt: 408 (request timeout), 429 (rate limited) and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The wait a response asks for: `retry-after-ms` (OpenAI, Azure OpenAI), else `retry-after` in seconds or as an
 * HTTP date. Undefined when absent or unreadable; never negative.
 */
export function retryAfterInMs(headers: HeaderReader | null | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const millis = headers.get('retry-after-ms');
  if (millis !== null && millis.trim() !== '' && Number.isFinite(Number(millis))) return Math.max(0, Number(millis));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (Number.isFinite(Number(value))) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
