import type { TestApi } from '../apiTestPlatform.test-helpers.js';

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** the body parsed as JSON when it is JSON (problem+json included) */
  json: any;
}

/** A request with any body and content type (import, export), answered as text. */
export async function rawCall(
  api: TestApi,
  method: string,
  path: string,
  options: { key?: string | null; body?: string | FormData | Uint8Array; contentType?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const key = options.key === undefined ? api.keys['test-admin'] : options.key;
  const res = await fetch(`${api.platform.url}/api/${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(options.contentType ? { 'content-type': options.contentType } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  const text = await res.text();
  const json =
    /^application\/(problem\+)?json/.test(res.headers.get('content-type') ?? '') && text ? (JSON.parse(text) as unknown) : undefined;
  return { status: res.status, headers: res.headers, text, json };
}

/** Every stored case, in store order, without ETags. */
export async function storedCases(api: TestApi): Promise<unknown[]> {
  const page = await api.platform.services.stores.testCases.listTestCases({}, { limit: 1000 });
  return page.items.map(({ _etag, ...testCase }) => testCase);
}
