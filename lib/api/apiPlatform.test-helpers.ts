/** Test helper: a real embedded platform on a temp data dir and port 0, keys by role, and a fetch-based JSON caller. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../platform/embedded.js';
import { silentLogger } from '../host/index.js';
import { createApiKey } from './apiKeys.js';
import type { Role } from '../domain/roles.js';

export interface ApiAnswer {
  status: number;
  json: any;
  headers: Headers;
}

export interface TestPlatform {
  platform: EmbeddedPlatform;
  /** a new API key with these roles */
  keyWith(roles: Role[], name?: string): Promise<string>;
  /** calls `${url}/api/${path}` with the key as a bearer token (or `auth` as the whole Authorization header) */
  api(
    method: string,
    path: string,
    options?: { key?: string; auth?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<ApiAnswer>;
  stop(): Promise<void>;
}

export async function startTestPlatform(prefix = 'evalp-api-'): Promise<TestPlatform> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  const platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
  const { apiKeys, clock } = platform.services;
  return {
    platform,
    keyWith: async (roles, name = roles.join('+')) => (await createApiKey(apiKeys, { name, roles }, clock)).key,
    api: async (method, path, options = {}) => {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      if (options.auth) headers.authorization = options.auth;
      if (options.body !== undefined) headers['content-type'] ??= 'application/json';
      const res = await fetch(`${platform.url}/api/${path}`, {
        method,
        headers,
        ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = text;
      }
      return { status: res.status, json, headers: res.headers };
    },
    stop: async () => {
      await platform.stop({ timeoutInMs: 5_000 });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
