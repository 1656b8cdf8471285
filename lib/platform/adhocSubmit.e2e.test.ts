import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesCaseQuery, parseCaseQuery, TargetSystemSchema, type Run, type Scorecard, type TestCase } from '../domain/index.js';
import { createApiKey } from '../api/index.js';
import { silentLogger } from '../host/index.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from './embedded.js';
import { QUICKSTART_DIR, storeQuickstart } from '../app/quickstart.test-helpers.js';
import { runCliInProcess } from '../cli/commands/cliRunner.test-helpers.js';

/**
 * `evalp submit --batch-file` and `--query` end to end on the embedded platform: an ad-hoc suite of cases that are
 * not in the gold set (hidden from the suite list, linked from the run, cases scored from the published version),
 * and a query run that evaluates exactly the gold-set cases the query matches.
 */
let platform: EmbeddedPlatform;
let dir: string;
let key: string;
let gold: TestCase[];

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function cardsOf(runId: string): Promise<Scorecard[]> {
  return (await api('GET', `v1/runs/${runId}/scorecards?limit=100`)).json.items as Scorecard[];
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evalp-adhoc-'));
  platform = await startEmbeddedPlatform({ dataDir: join(dir, 'data'), port: 0, logger: silentLogger, env: { ...process.env } });
  gold = await storeQuickstart(platform.services);
  const { apiKeys, clock, stores } = platform.services;
  key = (await createApiKey(apiKeys, { name: 'ci', roles: ['reader', 'runner', 'suite-admin'] }, clock)).key;
  // the batch: two quickstart cases under new ids (not in the gold set), answered right and wrong by a replay target
  const lines = (await readFile(join(QUICKSTART_DIR, 'gold.jsonl'), 'utf8')).trim().split('\n').slice(0, 2);
  const batch = lines.map((l) => ({ ...JSON.parse(l), id: `batch-${JSON.parse(l).id}` }));
  await writeFile(join(dir, 'new-cases.jsonl'), batch.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const outputs = (await readFile(join(QUICKSTART_DIR, 'outputs.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .slice(0, 2)
    .map((l) => JSON.parse(l));
  outputs[1].output.tool_calls[0].function.name = 'get_order'; // the wrong tool for the headphones question
  await writeFile(
    join(dir, 'outputs.jsonl'),
    outputs.map((o) => JSON.stringify({ ...o, test_case_id: `batch-${o.test_case_id}` })).join('\n') + '\n',
  );
  const now = clock.now().toISOString();
  await stores.targets.upsert(
    TargetSystemSchema.parse({
      id: 'batch-target',
      name: 'batch outputs',
      settings: { kind: 'replay', outputs_path: join(dir, 'outputs.jsonl') },
      tool_catalog: { name: 'retail', version: '2026-01' },
      created_at: now,
      updated_at: now,
    }),
  );
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await rm(dir, { recursive: true, force: true });
});

describe('evalp submit --batch-file', () => {
  it('runs the file as an ad-hoc suite: scored, linked from the run, hidden from lists, not in the gold set', async () => {
    const file = join(dir, 'new-cases.jsonl');
    const r = await runCliInProcess([
      'submit',
      '--batch-file',
      file,
      '--target',
      'batch-target',
      '--wait',
      '--url',
      platform.url,
      '--key',
      key,
    ]);
    expect(r.stderr).toMatch(/ad-hoc suite adhoc-\d{14}-[0-9a-f]{8} \(2 cases of .*new-cases\.jsonl\)/);
    expect(r.code, r.stderr).toBe(0);
    const runId = r.stdout.trim();
    const run = (await api('GET', `v1/runs/${runId}`)).json as Run;
    expect(run).toMatchObject({ status: 'completed', suite_version: 1, trigger_metadata: { batch_file: 'new-cases.jsonl' } });
    const suite = (await api('GET', `v1/test-suites/${run.suite_id}`)).json;
    expect(suite).toMatchObject({ kind: 'static', adhoc: { kind: 'batch-file', source: 'new-cases.jsonl' } });
    expect(suite.name).toMatch(/^new-cases\.jsonl @ \d{4}-/);
    const verdicts = Object.fromEntries((await cardsOf(runId)).map((c) => [c.test_case_id, c.overall_passed]));
    expect(verdicts).toEqual({ 'batch-order-status-1': true, 'batch-cheap-headphones': false });
    // hidden from the ordinary list, shown when asked; the cases never joined the gold set
    const listed = (await api('GET', 'v1/test-suites?limit=1000')).json.items.map((s: { id: string }) => s.id);
    expect(listed).not.toContain(run.suite_id);
    const all = (await api('GET', 'v1/test-suites?limit=1000&include_adhoc=true')).json.items.map((s: { id: string }) => s.id);
    expect(all).toContain(run.suite_id);
    expect((await api('GET', 'v1/test-cases/batch-order-status-1')).status).toBe(404);
  }, 90_000);

  it('a bad row stops it before anything is sent (exit 2, naming the row and field)', async () => {
    const file = join(dir, 'bad.jsonl');
    await writeFile(file, JSON.stringify({ id: 'x', nl_query: 'q', expected_tool_calls: [{ tool: 'f' }] }) + '\n');
    const before = (await api('GET', 'v1/test-suites?limit=1000&include_adhoc=true')).json.total;
    const r = await runCliInProcess(['submit', '--batch-file', file, '--target', 'batch-target', '--url', platform.url, '--key', key]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expected_tool_calls');
    expect((await api('GET', 'v1/test-suites?limit=1000&include_adhoc=true')).json.total).toBe(before);
  });
});

describe('runs from a query', () => {
  it('POST /api/v1/runs {query} evaluates exactly the matching gold-set cases and records the query on the run', async () => {
    const query = 'complexity_level>=2 AND NOT category:abstention OR tags:refunds';
    const expected = gold.filter((c) => matchesCaseQuery(parseCaseQuery(query), c)).map((c) => c.id);
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(gold.length);
    const r = await runCliInProcess(['submit', '--query', query, '--target', 'recorded', '--wait', '--url', platform.url, '--key', key]);
    expect(r.code, r.stderr).toBe(0);
    const run = (await api('GET', `v1/runs/${r.stdout.trim()}`)).json as Run;
    expect(run.trigger_metadata.query).toBe('(complexity_level>=2 AND NOT category:abstention) OR tags:refunds');
    expect(run.suite_id).toMatch(/^query-[0-9a-f]{16}$/);
    expect((await cardsOf(run.id)).map((c) => c.test_case_id).sort()).toEqual([...expected].sort());
    const suiteCases = (await api('GET', `v1/test-suites/${run.suite_id}/test-cases`)).json;
    expect(suiteCases.items.map((c: TestCase) => c.id).sort()).toEqual([...expected].sort());
  }, 90_000);

  it('a query that does not parse is a 400 naming body.query and the position', async () => {
    const r = await api('POST', 'v1/runs', { query: 'tags:search AND (category:x', target_id: 'recorded' });
    expect(r.status).toBe(400);
    expect(r.json.errors).toContainEqual({ path: 'body.query', message: 'expected ")" at position 28' });
    const cli = await runCliInProcess(['submit', '--query', 'colour:red', '--target', 'recorded', '--url', platform.url, '--key', key]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('--query: unknown field "colour"');
  });
});
