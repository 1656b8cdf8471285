/**
 * No route leaks across organizations: every row of the route table is called over HTTP (a real embedded platform
 * on 127.0.0.1) with the key of organization B (all roles) against organization A's ids and against ids that
 * exist nowhere. A route must answer both alike (same status: an id of another organization is as unknown as one
 * that does not exist), reads by id must be 404, no successful answer may show anything of A, and A's data must be
 * unchanged afterwards. The probes are generated from ROUTES: a new route is covered without editing this file,
 * unless it has a path parameter or a required query parameter this file cannot fill, which fails the test
 * naming the route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROLES, type AnnotationTask } from '../domain/index.js';
import { sampleAlert } from '../ports/contracts/alertStore.contract.js';
import { sampleCandidate, sampleInteraction } from '../ports/contracts/feedbackStore.contract.js';
import {
  sampleBenchmark,
  sampleBenchmarkRun,
  sampleCatalog,
  sampleClient,
  sampleExperiment,
  sampleRun,
  sampleScorecard,
  sampleSuite,
  sampleTarget,
  sampleTestCase,
} from '../ports/contracts/fixtures.js';
import { scopedStores } from '../tenancy/index.js';
import { createApiKey } from './apiKeys.js';
import { ROUTES } from './routeTable.js';
import type { RouteDefinition } from './route.js';
import { startTestApi, type TestApi } from './routes/apiTestPlatform.test-helpers.js';

/** Everything of organization A carries this marker in its id (or name), so a leak shows in any answer. */
const A = 'leak-a-';
/** The same ids with this marker exist nowhere. */
const GHOST = 'leak-g-';

/** What fills each path parameter, by the literal segment before it (`runs/{id}`) or the parameter's own name. */
const PATH_VALUES: Record<string, string> = {
  'runs/{id}': `${A}run`,
  'test-cases/{id}': `${A}case`,
  'test-suites/{id}': `${A}suite`,
  'test-cases/{caseId}': `${A}case`,
  'versions/{version}': '1',
  'tool-catalogs/{name}': `${A}catalog`,
  'target-systems/{id}': `${A}target`,
  'clients/{id}': `${A}client`,
  'keys/{id}': 'KEY_OF_A',
  'evaluate/{job_id}': `${A}run`,
  'run-pairs/{id}': `${A}pair`,
  'alerts/{id}': `${A}run:accuracy`,
  'dead-letters/{queue}': 'evaluate',
  'annotation-tasks/{id}': `${A}task`,
  'items/{item}': `${A}case`,
  'experiments/{id}': `${A}experiment`,
  'organizations/{id}': 'default',
  'interactions/{id}': `${A}interaction`,
  'candidates/{id}': `${A}candidate`,
  'benchmarks/{id}': `${A}benchmark`,
  'runs/{run_id}': `${A}benchrun`,
};

/** Required query parameters, by name. */
const QUERY_VALUES: Record<string, string> = { from: '1', to: '1' };

/** Bodies that reference A's entities, by route name (other body routes get `{}`, or for PUT the entity A reads). */
const BODIES: Record<string, unknown> = {
  'runs-create': { suite_id: `${A}suite`, target_id: `${A}target` },
  'run-pairs-create': { suite_id: `${A}suite`, baseline_target_id: `${A}target`, enhanced_target_id: `${A}target` },
  'compare-runs': { run_ids: [`${A}run`, `${A}run2`] },
  'compare-pairwise': { run_ids: [`${A}run`, `${A}run2`] },
  'test-cases-similar': { text: `What is the weather in city ${A}case?`, min_score: 0 },
  'annotations-create': {
    id: 'b-task',
    name: 'b',
    source: { kind: 'run', run_id: `${A}run` },
    label_schema: { kind: 'pass_fail' },
  },
  'experiments-create': {
    name: 'b',
    hypothesis: 'h',
    suite_id: `${A}suite`,
    target_id: `${A}target`,
    variants: [
      { name: 'a', control: true },
      { name: 'b', control: false },
    ],
  },
  'test-suites-cases-add': { test_case_ids: [`${A}case`] },
  'keys-create': { name: 'b', roles: ['reader'], organization: 'default' },
  'organizations-create': { id: 'b-made', name: 'made by b' },
  'organizations-set-budget': { monthly_usd: 1 },
  'dead-letters-replay': {},
};

let t: TestApi;

/** A call whose answer may be any text (streamed exports are NDJSON or CSV): `json` when it parses. */
async function call(
  method: string,
  path: string,
  options: { key: string; body?: unknown; headers?: Record<string, string> },
): Promise<{ status: number; text: string; json: any }> {
  const res = await fetch(`${t.platform.url}/api/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${options.key}`,
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}
let keyA: string;
let keyB: string;
let keyIdA: string;

function pathOf(route: RouteDefinition): string {
  return route.path.replace(/([^/]+)\/\{([^}]+)\}/g, (whole, segment: string, param: string) => {
    const value = PATH_VALUES[`${segment}/{${param}}`];
    if (value === undefined)
      throw new Error(`${route.name}: add a value for ${segment}/{${param}} to PATH_VALUES of organizationLeak.test.ts`);
    return `${segment}/${encodeURIComponent(value === 'KEY_OF_A' ? keyIdA : value)}`;
  });
}

function queryOf(route: RouteDefinition): string {
  const shape = (route.query as z.ZodObject | undefined)?.shape ?? {};
  const required = Object.entries(shape).filter(([, schema]) => !(schema as z.ZodType).safeParse(undefined).success);
  const params = new URLSearchParams();
  for (const [name] of required) {
    const value = QUERY_VALUES[name];
    if (value === undefined) throw new Error(`${route.name}: add a value for the required query parameter ${name} to QUERY_VALUES`);
    params.set(name, value);
  }
  return params.size ? `?${params}` : '';
}

const ghostOf = (text: string): string => text.replaceAll(A, GHOST).replaceAll(encodeURIComponent(A), encodeURIComponent(GHOST));

async function seedOrganizationA(): Promise<void> {
  const stores = scopedStores(t.platform.services.stores, 'default');
  await stores.testCases.upsertTestCases([sampleTestCase(`${A}case`), sampleTestCase(`${A}case2`)]);
  await stores.suites.create({ ...sampleSuite(`${A}suite`), test_case_ids: [`${A}case`, `${A}case2`] });
  await stores.catalogs.create(sampleCatalog(`${A}catalog`));
  await stores.targets.create(sampleTarget(`${A}target`));
  await stores.clients.create({ ...sampleClient(`${A}client`), suite_ids: [`${A}suite`], target_id: `${A}target` });
  const run = (id: string, baseline: string | null) =>
    sampleRun(id, {
      suite_id: `${A}suite`,
      target_id: `${A}target`,
      client_id: `${A}client`,
      status: 'completed',
      total_cases: 2,
      baseline_run_id: baseline,
      started_at: '2026-03-01T12:00:01.000Z',
      completed_at: '2026-03-01T12:05:00.000Z',
    });
  await stores.runs.createRun(run(`${A}run2`, null));
  await stores.runs.createRun(run(`${A}run`, `${A}run2`));
  await stores.scorecards.upsertScorecards([
    sampleScorecard(`${A}run`, `${A}case`),
    sampleScorecard(`${A}run`, `${A}case2`, { passed: false }),
    sampleScorecard(`${A}run2`, `${A}case`),
    sampleScorecard(`${A}run2`, `${A}case2`),
  ]);
  await stores.runStats.recomputeRunStats(`${A}run`, 2);
  await stores.runStats.recomputeRunStats(`${A}run2`, 2);
  await stores.alerts.createAlert(
    sampleAlert(`${A}run`, 'accuracy', {
      baseline_run_id: `${A}run2`,
      client_id: `${A}client`,
      suite_id: `${A}suite`,
      target_id: `${A}target`,
    }),
  );
  const task: AnnotationTask = {
    id: `${A}task`,
    name: `${A}task`,
    source: { kind: 'run', run_id: `${A}run` },
    label_schema: { kind: 'pass_fail' },
    annotators_per_item: 1,
    item_count: 2,
    created_at: '2026-03-01T12:00:00.000Z',
    created_by: 'a',
  };
  await stores.annotations.createTask(task, [`${A}case`, `${A}case2`]);
  await stores.experiments.create({ ...sampleExperiment(`${A}experiment`), suite_id: `${A}suite`, target_id: `${A}target` });
  await stores.feedback.addInteraction(sampleInteraction(`${A}interaction`), '2026-03-01T12:00:00.000Z');
  await stores.feedback.createCandidate(sampleCandidate(`${A}candidate`, { interaction_id: `${A}interaction` }));
  await stores.benchmarks.create(sampleBenchmark(`${A}benchmark`));
  await stores.benchmarkRuns.create({ ...sampleBenchmarkRun(`${A}benchrun`), benchmark_id: `${A}benchmark` });
  // published version 1 and an audited change, both through A's own API
  expect((await t.call('POST', `v1/test-suites/${A}suite/versions`, { key: keyA, body: {} })).status).toBe(201);
}

/** What A sees of its own entities (to check nothing of it changed). */
async function snapshotOfA(): Promise<unknown[]> {
  const paths = [
    `v1/runs/${A}run`,
    `v1/runs/${A}run/scorecards`,
    `v1/test-cases/${A}case`,
    `v1/test-suites/${A}suite`,
    `v1/tool-catalogs/${A}catalog/versions/1`,
    `v1/target-systems/${A}target`,
    `v1/clients/${A}client`,
    `v1/alerts/${encodeURIComponent(`${A}run:accuracy`)}`,
    `v1/annotation-tasks/${A}task`,
    `v1/experiments/${A}experiment`,
    `v1/test-suites/${A}suite/versions`,
  ];
  const answers = await Promise.all(paths.map((p) => t.call('GET', p, { key: keyA })));
  for (const [i, a] of answers.entries()) expect([paths[i], a.status]).toEqual([paths[i], 200]);
  const keys = (await t.call('GET', 'v1/keys?limit=1000', { key: keyA })).json.items.map((k: { id: string; status: string }) => [
    k.id,
    k.status,
  ]);
  return [answers.map((a) => dropVolatile(a.json)), keys];
}

/** Fields that change by themselves between two reads (live health, time-relative figures). */
function dropVolatile(json: unknown): unknown {
  return JSON.parse(
    JSON.stringify(json, (k, v: unknown) => (['health', 'queue', 'circuit', 'waiting', 'age_seconds'].includes(k) ? undefined : v)),
  );
}

beforeAll(async () => {
  t = await startTestApi({ EVALP_API_RATE_LIMIT_RPS: '0' });
  const { apiKeys, clock } = t.platform.services;
  const made = await createApiKey(apiKeys, { name: `${A}key`, roles: [...ROLES] }, clock);
  keyA = made.key;
  keyIdA = made.record.id;
  expect((await t.call('POST', 'v1/organizations', { key: keyA, body: { id: 'org-b', name: 'Organization B' } })).status).toBe(201);
  keyB = (await t.call('POST', 'v1/keys', { key: keyA, body: { name: 'b-key', roles: [...ROLES], organization: 'org-b' } })).json.key;
  await seedOrganizationA();
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('organizations: no route leaks across organizations', () => {
  it('B sees its own organization only (GET /v1/me), and A sees its entities', async () => {
    expect((await t.call('GET', 'v1/me', { key: keyB })).json.organization).toBe('org-b');
    expect((await t.call('GET', 'v1/me', { key: keyA })).json.organization).toBe('default');
    const runsOfA = (await t.call('GET', 'v1/runs', { key: keyA })).json;
    expect(runsOfA.items.map((r: { id: string }) => r.id).sort()).toEqual([`${A}run`, `${A}run2`]);
    expect((await t.call('GET', 'v1/test-cases', { key: keyA })).json.total).toBe(2);
  });

  // before the probes below: B's own audit trail then names A's ids it tried (its own requests, not A's data)
  it('lists of B stay empty of A while A has data everywhere, and A’s lists do not show B’s entities', async () => {
    await t.call('POST', 'v1/test-cases', { key: keyB, body: sampleTestCase('b-only-case') });
    const listsOfB = ROUTES.filter((r) => r.method === 'GET' && !r.path.includes('{') && r.role !== 'anonymous');
    expect(listsOfB.length).toBeGreaterThan(10);
    for (const route of listsOfB) {
      const answer = await call('GET', route.path + queryOf(route), { key: keyB });
      expect([route.name, answer.text.includes(A)]).toEqual([route.name, false]);
    }
    const casesOfA = (await t.call('GET', 'v1/test-cases?limit=100', { key: keyA })).json;
    expect(casesOfA.items.map((c: { id: string }) => c.id)).not.toContain('b-only-case');
    expect((await t.call('GET', 'v1/test-cases/b-only-case', { key: keyA })).status).toBe(404);
    expect((await t.call('GET', 'v1/test-cases/b-only-case', { key: keyB })).status).toBe(200);
  });

  it('every route of the route table answers B for A’s ids exactly as for ids that exist nowhere; reads are 404; nothing of A shows', async () => {
    const before = await snapshotOfA();
    const failures: string[] = [];
    // reads first, then changes (a leaking delete must not hide a leaking read)
    const ordered = [...ROUTES].sort((x, y) => Number(x.method !== 'GET') - Number(y.method !== 'GET'));
    for (const route of ordered) {
      if (route.role === 'anonymous') continue;
      const path = pathOf(route) + queryOf(route);
      let body: unknown;
      if (route.body) {
        body = BODIES[route.name];
        if (body === undefined && route.method === 'PUT') {
          const read = await call('GET', path, { key: keyA });
          body = read.status === 200 ? read.json : {};
        }
        body ??= {};
      }
      const headers = route.rawBody ? { 'content-type': route.rawBody.mediaTypes[0]! } : undefined;
      const raw = route.rawBody ? `{"id":"${A}imported","nl_query":"q","expected_tool_calls":[]}` : undefined;
      const send = (p: string, b: unknown, r: string | undefined) =>
        call(route.method, p, {
          key: keyB,
          ...(r !== undefined ? { body: r } : b !== undefined ? { body: b } : {}),
          ...(headers ? { headers } : {}),
        });
      const real = await send(path, body, raw);
      const ghostBody = body === undefined ? undefined : JSON.parse(ghostOf(JSON.stringify(body)));
      const ghost = await send(ghostOf(path), ghostBody, raw === undefined ? undefined : ghostOf(raw));
      const label = `${route.name} ${route.method} ${path}`;
      const text = real.text;
      if (real.status !== ghost.status)
        failures.push(`${label}: ${real.status} for A's ids but ${ghost.status} for unknown ids (${text.slice(0, 200)})`);
      if (route.method === 'GET' && route.path.includes('{') && route.name !== 'dead-letters-list' && real.status !== 404)
        failures.push(`${label}: a read of A's id answered ${real.status}, not 404`);
      if (real.status < 300 && text.includes(A)) failures.push(`${label}: the answer shows A's data: ${text.slice(0, 300)}`);
      if (real.status === 403 && route.path.includes('{')) failures.push(`${label}: 403 for another organization's id (must be 404)`);
    }
    expect(failures).toEqual([]);
    expect(await snapshotOfA()).toEqual(before);
  }, 300_000);

  it('ids stay unique across organizations: B cannot create or import over an id A holds (409), and A keeps it', async () => {
    const created = await t.call('POST', 'v1/test-cases', { key: keyB, body: sampleTestCase(`${A}case`) });
    expect(created.status).toBe(409);
    expect(JSON.stringify(created.json)).not.toContain('default');
    const imported = await t.call('POST', 'v1/test-cases/import', {
      key: keyB,
      body: JSON.stringify(sampleTestCase(`${A}case2`)),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(imported.status).toBeGreaterThanOrEqual(400);
    expect((await t.call('GET', `v1/test-cases/${A}case2`, { key: keyA })).json.nl_query).toBe(sampleTestCase(`${A}case2`).nl_query);
  });
});
