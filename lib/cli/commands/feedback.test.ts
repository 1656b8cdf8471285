import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../api/apiKeys.js';
import { startTestApi, type TestApi } from '../../api/routes/apiTestPlatform.test-helpers.js';
import { packageRoot } from '../../app/packageRoot.js';
import { TestCaseSchema } from '../../domain/index.js';
import { runCliInProcess } from './cliRunner.test-helpers.js';

const example = join(packageRoot(), 'examples/feedback/interactions.jsonl');
let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await startTestApi();
  const { apiKeys, clock, stores } = api.platform.services;
  key = (await createApiKey(apiKeys, { name: 'reviewer', roles: ['test-admin', 'suite-admin'] }, clock)).key;
  // the retail sample's gold set, so candidates find their nearest existing cases
  const gold = readFileSync(join(packageRoot(), 'examples/retail/gold.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => TestCaseSchema.parse(JSON.parse(l)));
  await stores.testCases.upsertTestCases(gold);
  await api.call('POST', 'v1/test-suites', {
    key: api.keys['suite-admin'],
    body: { id: 'from-production', name: 'from production', kind: 'static' },
  });
}, 120_000);
afterAll(() => api.stop());

const conn = () => ['--url', api.platform.url, '--key', key];

describe('evalp feedback (the generated example file, end to end)', () => {
  it('imports, imports again (nothing new), lists, approves once, supplies calls, rejects', async () => {
    const first = await runCliInProcess(['feedback', 'import', example, '--suite', 'from-production', ...conn()]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      '8 interactions: 8 stored, 0 already stored; 6 new candidate(s) in 5 group(s), 1 needing expected calls; 2 not candidates (not flagged or corrected)\n',
    );
    const second = await runCliInProcess(['feedback', 'import', example, '--suite', 'from-production', ...conn()]);
    expect(second.stdout).toBe(
      '8 interactions: 0 stored, 8 already stored; 0 new candidate(s) in 0 group(s), 0 needing expected calls; 2 not candidates (not flagged or corrected)\n',
    );

    const listed = JSON.parse((await runCliInProcess(['feedback', 'list', '--json', ...conn()])).stdout) as Array<{
      id: string;
      group_id: string;
      needs: string[];
      nearest_case: { id: string; near_duplicate: boolean } | null;
      draft: { expected_tool_calls?: unknown; metadata: { category?: string } };
    }>;
    const byId = Object.fromEntries(listed.map((c) => [c.id, c]));
    expect(Object.keys(byId).sort()).toEqual(['gen-ix-0001', 'gen-ix-0002', 'gen-ix-0003', 'gen-ix-0004', 'gen-ix-0007', 'gen-ix-0008']);
    expect(byId['gen-ix-0002']!.group_id).toBe('gen-ix-0001');
    expect(byId['gen-ix-0001']!.nearest_case).toMatchObject({ id: 'retail-0002', near_duplicate: true });
    expect(byId['gen-ix-0001']!.draft.metadata.category).toBe('orders');
    expect(byId['gen-ix-0003']!.draft.expected_tool_calls).toEqual([
      { tool_name: 'issue_refund', arguments: { order_id: 'ORD-104006', amount: 12.5, reason: 'late_delivery' } },
    ]);
    expect(byId['gen-ix-0004']!.needs).toEqual(['expected_tool_calls']);
    expect((await runCliInProcess(['feedback', 'list', ...conn()])).stdout).toContain('6 candidate(s)');

    const approved = await runCliInProcess(['feedback', 'approve', 'gen-ix-0001', ...conn()]);
    expect(approved.stdout).toBe('approved candidate gen-ix-0001: test case fb-gen-ix-0001 added to suite from-production\n');
    const twice = await runCliInProcess(['feedback', 'approve', 'gen-ix-0001', ...conn()]);
    expect(twice.stdout).toBe(
      'candidate gen-ix-0001 was already approved: test case fb-gen-ix-0001 is in suite from-production (nothing added)\n',
    );

    const noCalls = await runCliInProcess(['feedback', 'approve', 'gen-ix-0004', ...conn()]);
    expect(noCalls.code).toBe(2);
    expect(noCalls.stderr).toContain('edits.expected_tool_calls');
    const withCalls = await runCliInProcess([
      'feedback',
      'approve',
      'gen-ix-0004',
      '--calls',
      '[{"tool_name":"get_inventory","arguments":{"sku":"SKU-NGUMYD","warehouse":"reno"}}]',
      ...conn(),
    ]);
    expect(withCalls.code).toBe(0);
    const rejected = await runCliInProcess(['feedback', 'reject', 'gen-ix-0002', '--reason', 'same question as gen-ix-0001', ...conn()]);
    expect(rejected.stdout).toBe('rejected candidate gen-ix-0002: same question as gen-ix-0001\n');

    const suite = (await api.call('GET', 'v1/test-suites/from-production')).json as { test_case_ids: string[] };
    expect(suite.test_case_ids).toEqual(['fb-gen-ix-0001', 'fb-gen-ix-0004']);
    const tc = (await api.call('GET', 'v1/test-cases/fb-gen-ix-0004')).json;
    expect(tc.metadata).toMatchObject({
      source: 'production_feedback',
      feedback: { interaction_id: 'gen-ix-0004', reason: 'thumbs_down', approved_by: 'reviewer' },
    });
    expect((await runCliInProcess(['feedback', 'list', '--status', 'approved', '--json', ...conn()])).stdout).toContain('gen-ix-0004');
  });

  it('refuses a bad line before sending anything, naming the file, the line and the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalp-feedback-'));
    const file = join(dir, 'bad.jsonl');
    await writeFile(
      file,
      `${readFileSync(example, 'utf8').split('\n')[0]}\n\n{"id":"x","client_id":"c","started_at":"2026-11-20T09:00:00Z"}\n`,
    );
    const bad = await runCliInProcess(['feedback', 'import', file, ...conn()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${file} line 3: question: give exactly one of question`);
    expect((await api.call('GET', 'v1/feedback/interactions/x')).status).toBe(404);
  });
});
