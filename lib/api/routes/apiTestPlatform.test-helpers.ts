import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestCaseSchema, type TestCase } from '../../domain/index.js';
import { silentLogger } from '../../host/index.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../platform/embedded.js';
import { createApiKey } from '../apiKeys.js';
import { ROLES, type Role } from '../../domain/roles.js';

/** Test support: a real embedded platform on a temp SQLite file and port 0, one API key per role, and a fetch helper. */
export interface TestApi {
  platform: EmbeddedPlatform;
  /** a key with exactly one role */
  keys: Record<Role, string>;
  call(
    method: string,
    path: string,
    options?: { key?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<ApiAnswer>;
  /** stores test cases directly (`id` plus optional category and tags) */
  seedCases(cases: Array<{ id: string; category?: string; tags?: string[]; nl_query?: string }>): Promise<TestCase[]>;
  stop(): Promise<void>;
}

export interface ApiAnswer {
  status: number;
  /** the parsed JSON body (undefined when empty) */
  json: any;
  headers: Headers;
}

export async function startTestApi(env: Record<string, string> = {}): Promise<TestApi> {
  const dataDir = await mkdtemp(join(tmpdir(), 'evalp-api-'));
  const platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger, env: { ...process.env, ...env } });
  const { apiKeys, clock, stores } = platform.services;
  const keys = {} as Record<Role, string>;
  for (const role of ROLES) keys[role] = (await createApiKey(apiKeys, { name: `${role}-key`, roles: [role] }, clock)).key;
  return {
    platform,
    keys,
    call: async (method, path, options = {}) => {
      const key = options.key === undefined ? keys.reader : options.key;
      const res = await fetch(`${platform.url}/api/${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
        ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined, headers: res.headers };
    },
    seedCases: async (cases) => {
      const parsed = cases.map((c) =>
        TestCaseSchema.parse({
          id: c.id,
          nl_query: c.nl_query ?? `question ${c.id}`,
          expected_tool_calls: [],
          metadata: { complexity_level: 1, tags: c.tags ?? [], ...(c.category ? { category: c.category } : {}) },
        }),
      );
      await stores.testCases.upsertTestCases(parsed);
      return parsed;
    },
    stop: async () => {
      await platform.stop({ timeoutInMs: 5_000 });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
