import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey } from '../../api/index.js';
import { DEMO_SUITE_ID, demoRunConfig, loadRetailSample } from '../../app/demo.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../platform/embedded.js';
import { packageRoot } from '../../app/packageRoot.js';
import { TERMINAL_RUN_STATUSES, type Run, type RunStats, type TriggerMetadataSchema } from '../../domain/index.js';
import { silentLogger } from '../../host/index.js';
import type { z } from 'zod';

export const RETAIL_DIR = join(packageRoot(), 'examples', 'retail');

/** An embedded platform on a temp dir with the retail sample loaded and a reader+runner key (tests only). */
export interface RetailPlatform {
  platform: EmbeddedPlatform;
  url: string;
  /** roles reader and runner */
  key: string;
  /** starts a run of one recorded model and waits for it to finish */
  runModel(
    target: string,
    trigger?: z.input<typeof TriggerMetadataSchema>,
    extra?: Record<string, unknown>,
  ): Promise<Run & { stats: RunStats }>;
  stop(): Promise<void>;
}

export async function startRetailPlatform(): Promise<RetailPlatform> {
  const dataDir = await mkdtemp(join(tmpdir(), 'evalp-reports-'));
  const platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
  await loadRetailSample(platform.services, RETAIL_DIR);
  const { apiKeys, clock } = platform.services;
  const key = (await createApiKey(apiKeys, { name: 'reports-test', roles: ['reader', 'runner'] }, clock)).key;
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${platform.url}/api/${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as unknown;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    platform,
    url: platform.url,
    key,
    async runModel(target, trigger = {}, extra = {}) {
      const created = await call('POST', 'v1/runs', {
        suite_id: DEMO_SUITE_ID,
        target_id: target,
        triggered_by: 'demo',
        trigger_metadata: trigger,
        config: demoRunConfig(RETAIL_DIR),
        ...extra,
      });
      const until = Date.now() + 60_000;
      for (;;) {
        const run = await call('GET', `v1/runs/${created.id}`);
        if (TERMINAL_RUN_STATUSES.has(run.status)) return run;
        if (Date.now() > until) throw new Error(`run ${created.id} still ${run.status}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      await platform.stop({ timeoutInMs: 5_000 });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A question no report may render as markup: HTML, an XML CDATA terminator, Markdown syntax, control characters. */
export const HOSTILE_QUESTION =
  'Refund </script><script>window.__xss=1</script> ]]> & "q" \'s\' | *b* <!-- c --> `t` \u0001\u0008 \uD800 done?';
/** A case model B fails (syntax: schema_violation) whose question the fixture replaces with HOSTILE_QUESTION. */
export const HOSTILE_CASE_ID = 'retail-0025';

/**
 * The retail platform with HOSTILE_QUESTION planted in HOSTILE_CASE_ID, and the two recorded models run: A as the
 * base branch's run (`main`), B as a pull request's (`feature/refunds`, PR 42).
 */
export async function retailRunsFixture(): Promise<{
  retail: RetailPlatform;
  base: Run & { stats: RunStats };
  head: Run & { stats: RunStats };
}> {
  const retail = await startRetailPlatform();
  const { testCases } = retail.platform.services.stores;
  const { _etag, ...tc } = (await testCases.getTestCase(HOSTILE_CASE_ID))!;
  await testCases.upsertTestCases([{ ...tc, nl_query: HOSTILE_QUESTION }]);
  const base = await retail.runModel('simulated-model-a', { branch: 'main', commit_sha: 'aaaaaaa1', repository: 'acme/shop' });
  const head = await retail.runModel('simulated-model-b', {
    branch: 'feature/refunds',
    commit_sha: 'bbbbbbb2',
    pr_number: 42,
    repository: 'acme/shop',
  });
  return { retail, base, head };
}
