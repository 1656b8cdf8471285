/**
 * Test support for the fault scenarios: the retail example (327 gold cases, generated sample data) on an embedded
 * platform, and a real HTTP agent on 127.0.0.1 that answers each case with simulated model A's recorded output,
 * except for the cases a `fault` function picks, which it fails as told (HTTP 500, a hang, a reset, garbage).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TargetSystemSchema, TestSuiteSchema, type TestCase } from '../../domain/index.js';
import { importJsonl } from '../../goldset/importers/index.js';
import { parseToolCatalog } from '../../goldset/offline/index.js';
import type { Services } from '../../ports/index.js';
import { packageRoot } from '../packageRoot.js';

export const RETAIL_DIR = join(packageRoot(), 'examples', 'retail');

export type Fault = 'ok' | 'http500' | 'hang' | 'reset' | 'garbage';

export interface RetailAgent {
  url: string;
  /** requests received per case id */
  requests: Map<string, number>;
  close(): Promise<void>;
}

/**
 * The agent: POST {"id": "<case id>"} -> {"output": <recorded assistant message>}, or the fault `faultOf` picks.
 * `request` counts the requests for the case (all paths); `path` is the request's URL path, so several targets can
 * point at one agent (`<url>/<label>`) and misbehave differently.
 */
export async function startRetailAgent(faultOf: (caseId: string, request: number, path: string) => Fault): Promise<RetailAgent> {
  const outputs = new Map<string, unknown>();
  for (const line of (await readFile(join(RETAIL_DIR, 'outputs-model-a.jsonl'), 'utf8')).split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { test_case_id: string; output: unknown };
    outputs.set(row.test_case_id, row.output);
  }
  const requests = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const id = (JSON.parse(body || '{}') as { id?: string }).id ?? '';
      const n = (requests.get(id) ?? 0) + 1;
      requests.set(id, n);
      const fault = faultOf(id, n, req.url ?? '/');
      if (fault === 'hang') return; // never answers: the target's timeout fires
      if (fault === 'reset') return void req.socket.destroy();
      if (fault === 'http500') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
      if (fault === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"output": ');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ output: outputs.get(id) ?? null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/agent`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Stores the retail catalog, its 327 cases and a static suite `retail` of them; returns the cases. */
export async function storeRetail(services: Pick<Services, 'stores' | 'clock'>): Promise<TestCase[]> {
  const { stores, clock } = services;
  const now = clock.now().toISOString();
  const catalog = parseToolCatalog(JSON.parse(await readFile(join(RETAIL_DIR, 'catalog.json'), 'utf8')));
  await stores.catalogs.upsert({ ...catalog, id: `${catalog.name}@${catalog.tool_schema_version}` });
  const { cases } = await importJsonl(await readFile(join(RETAIL_DIR, 'gold.jsonl'), 'utf8'));
  await stores.testCases.upsertTestCases(cases);
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'retail',
      name: 'retail (generated sample)',
      kind: 'static',
      test_case_ids: cases.map((c) => c.id),
      created_at: now,
      updated_at: now,
    }),
  );
  return cases;
}

/** An HTTP target on the agent (catalog of the retail sample). */
export async function storeAgentTarget(
  services: Pick<Services, 'stores' | 'clock'>,
  id: string,
  url: string,
  options: { timeout_ms?: number; max_retries?: number } = {},
): Promise<void> {
  const now = services.clock.now().toISOString();
  const catalog = parseToolCatalog(JSON.parse(await readFile(join(RETAIL_DIR, 'catalog.json'), 'utf8')));
  await services.stores.targets.upsert(
    TargetSystemSchema.parse({
      id,
      name: `simulated model A over HTTP (${id})`,
      settings: {
        kind: 'http',
        url,
        request_template: '{"id": {{test_case_id}}, "question": {{question}}}',
        response: { answer_path: '$.output' },
      },
      tool_catalog: { name: catalog.name, version: catalog.tool_schema_version },
      timeout_ms: options.timeout_ms ?? 5_000,
      max_retries: options.max_retries ?? 1,
      rate_limit: { requests_per_second: 1_000, max_in_flight: 32 },
      created_at: now,
      updated_at: now,
    }),
  );
}
