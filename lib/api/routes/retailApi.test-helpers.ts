import { afterAll, beforeAll } from 'vitest';
import { createApiKey } from '../apiKeys.js';
import { startRetailPlatform, type RetailPlatform } from '../../reports/testing/retailPlatform.test-helpers.js';

/** One API reply: status, content type and the parsed JSON body (undefined when empty). */
export interface ApiReply {
  status: number;
  type: string;
  json: any;
}

/** The retail platform of one route test file, with a reader-only key beside its reader+runner key. */
export interface RetailApi {
  retail: RetailPlatform;
  readerKey: string;
  /** `method /api/<path>` with an optional JSON body, as the reader+runner key unless another is given */
  call(method: string, path: string, body?: unknown, key?: string): Promise<ApiReply>;
}

/**
 * For one test file: the retail platform (lib/reports/testing) started before its tests (with a reader-only key) and
 * stopped after. The returned object's fields are set once the platform runs, so read them inside tests and hooks.
 */
export function retailApiForTests(): RetailApi {
  const api = {
    async call(method: string, path: string, body?: unknown, key = api.retail.key): Promise<ApiReply> {
      const res = await fetch(`${api.retail.url}/api/${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, type: res.headers.get('content-type') ?? '', json: text ? JSON.parse(text) : undefined };
    },
  } as RetailApi;
  beforeAll(async () => {
    api.retail = await startRetailPlatform();
    const { apiKeys, clock } = api.retail.platform.services;
    api.readerKey = (await createApiKey(apiKeys, { name: 'reader-only', roles: ['reader'] }, clock)).key;
  }, 60_000);
  afterAll(async () => {
    await api.retail?.stop();
  });
  return api;
}
