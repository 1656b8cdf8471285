/**
 * Soak benchmark (issue 16): the embedded platform as a child process on a real SQLite data dir, runs of the retail
 * sample submitted over its HTTP API against a real HTTP agent on 127.0.0.1 that fails (HTTP 500), hangs (the
 * target's timeout fires), resets the connection or answers garbage on ~10% of calls (chosen by a seeded hash, so a
 * fault-free reference run of the same agent exists), poison messages written into its queues, and the platform
 * SIGKILLed at random points (at least --kills times) and restarted each time until every run has ended.
 *
 * Then every run is checked against the fault-free run of the same cases, and the LAST line printed is
 *   lost N, duplicated N, stuck N, healthy cases scored differently from a fault-free run N
 * lost = a case of the suite without a scorecard; duplicated = more than one scorecard for a case/trial, or run
 * statistics that count a case twice (their counts differ from a recount of the scorecards); stuck = a run not in a
 * terminal state at the end; healthy = a case whose target calls in that run all succeeded, scored differently from
 * the fault-free run (passed, score, error code, each stage's status and score). Exit code 1 when any count is not 0.
 *
 * npm run bench:soak [-- --runs 3 --kills 20 --cases 327 --fault-rate 0.1 --seed 16 --kill-min-ms 800 --kill-max-ms 4000]
 * (each flag also as an env var: SOAK_RUNS, SOAK_KILLS, SOAK_CASES, SOAK_FAULT_RATE, SOAK_SEED, ...)
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { demoRunConfig } from '../lib/app/index.js';
import { RETAIL_DIR, startRetailAgent, type Fault } from '../lib/app/faults/retailAgent.test-helpers.js';
import { TERMINAL_RUN_STATUSES, type RunStatus, type Scorecard } from '../lib/domain/index.js';
import { openHostDatabase } from '../lib/host/index.js';
import { SqliteQueueEngine } from '../lib/host/servicebus/index.js';
import { startPlatformProcess, type PlatformProcess } from '../lib/platform/index.js';
import { QUEUES } from '../lib/runs/queues.js';
import { createRandom } from './fixtures/random.js';
import { checkSoakRun, verdictOf } from './soakCheck.js';

const flag = (name: string, fallback: string): { type: 'string'; default: string } => ({
  type: 'string',
  default: process.env[`SOAK_${name.toUpperCase().replaceAll('-', '_')}`] ?? fallback,
});
const { values } = parseArgs({
  options: {
    runs: flag('runs', '3'),
    kills: flag('kills', '20'),
    cases: flag('cases', '327'),
    'fault-rate': flag('fault-rate', '0.1'),
    seed: flag('seed', '16'),
    'kill-min-ms': flag('kill-min-ms', '800'),
    'kill-max-ms': flag('kill-max-ms', '4000'),
    'timeout-ms': flag('timeout-ms', '1500'),
    'circuit-open-ms': flag('circuit-open-ms', '1000'),
    'final-wait-s': flag('final-wait-s', '240'),
    'keep-data': { type: 'boolean', default: false },
    /** run the platform from lib/ under tsx instead of dist/ (slower restarts; no build needed) */
    sources: { type: 'boolean', default: false },
  },
});
const num = (name: keyof typeof values): number => {
  const v = Number(values[name]);
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} must be a non-negative number, got ${String(values[name])}`);
  return v;
};
const RUNS = Math.max(1, num('runs'));
const KILLS = num('kills');
const CASES = Math.max(1, num('cases'));
const FAULT_RATE = num('fault-rate');
const SEED = num('seed');
const KILL_MIN_MS = num('kill-min-ms');
const KILL_MAX_MS = Math.max(KILL_MIN_MS, num('kill-max-ms'));
const TARGET_TIMEOUT_MS = num('timeout-ms');
const FINAL_WAIT_MS = num('final-wait-s') * 1000;

const started = performance.now();
const elapsed = (): string => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const log = (line: string): void => console.log(`[${elapsed().padStart(5)}] ${line}`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const rnd = createRandom(SEED);

// ---- the misbehaving agent: faults by a seeded hash of (run label, case, n-th request of the case in that run) ----
const FAULTS: Fault[] = ['http500', 'hang', 'reset', 'garbage'];
const requestsOf = new Map<string, number>();
/** `${label}|${caseId}` of every case that saw at least one failed call in that run */
const faulted = new Set<string>();
const faultCounts = new Map<Fault, number>();
let calls = 0;
function faultOf(caseId: string, _n: number, path: string): Fault {
  const label = path.split('/').filter(Boolean).at(-1) ?? '';
  const key = `${label}|${caseId}`;
  const n = (requestsOf.get(key) ?? 0) + 1;
  requestsOf.set(key, n);
  calls++;
  if (label === 'reference') return 'ok';
  const h = createHash('sha256').update(`${SEED}|${key}|${n}`).digest();
  if (h.readUInt32BE(0) / 2 ** 32 >= FAULT_RATE) return 'ok';
  const fault = FAULTS[h[4]! % FAULTS.length]!;
  faulted.add(key);
  faultCounts.set(fault, (faultCounts.get(fault) ?? 0) + 1);
  return fault;
}

// ---- the platform, over HTTP ----
let platform: PlatformProcess | undefined;
let key = '';
async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${platform!.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}
async function must<T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> {
  const r = await api<T>(method, path, body, contentType);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json).slice(0, 600)}`);
  return r.json;
}

interface RunView {
  id: string;
  status: RunStatus;
  stats: {
    completed: number;
    scored?: number;
    passed: number;
    not_scored?: number;
    by_category?: Record<string, { completed: number }>;
  } | null;
}

const dataDir = await mkdtemp(join(tmpdir(), 'evalp-soak-'));
const env = {
  ...process.env,
  EVALP_DEMO: 'off',
  EVALP_API_RATE_LIMIT_RPS: '0',
  // the open window of a target's breaker (default 30 s): deferred cases come back within the soak's time
  EVALP_CIRCUIT_OPEN_MS: String(num('circuit-open-ms')),
};
const agent = await startRetailAgent(faultOf);
const start = async (): Promise<void> => {
  platform = await startPlatformProcess(dataDir, { env, from: values.sources ? 'sources' : 'compiled' });
  key ||= platform.firstStartKey ?? '';
  if (!key) throw new Error('no admin key: the first start did not print one');
};

interface Submitted {
  label: string;
  id: string;
}
const runs: Submitted[] = [];
let exitCode = 0;
try {
  log(`soak: ${RUNS} runs of ${CASES} retail cases (generated sample), ≥${KILLS} SIGKILLs, fault rate ${FAULT_RATE}, seed ${SEED}`);
  log(`data dir ${dataDir}, agent ${agent.url}`);
  await start();

  // ---- setup over the API: catalog, cases, suite, one HTTP target per run (each its own agent path) ----
  const catalog = JSON.parse(await readFile(join(RETAIL_DIR, 'catalog.json'), 'utf8')) as { name: string; tool_schema_version: string };
  await must('POST', 'v1/tool-catalogs', catalog);
  const gold = (await readFile(join(RETAIL_DIR, 'gold.jsonl'), 'utf8')).split('\n').filter(Boolean).slice(0, CASES);
  await must('POST', 'v1/test-cases/import', gold.join('\n'), 'application/x-ndjson');
  const caseIds = gold.map((l) => (JSON.parse(l) as { id: string }).id);
  await must('POST', 'v1/test-suites', { id: 'soak', name: 'soak (retail, generated sample)', kind: 'static', test_case_ids: caseIds });
  const config = demoRunConfig(RETAIL_DIR);
  const submit = async (label: string): Promise<Submitted> => {
    await must('POST', 'v1/target-systems', {
      id: `agent-${label}`,
      name: `simulated model A over HTTP (${label})`,
      settings: {
        kind: 'http',
        url: `${agent.url}/${label}`,
        request_template: '{"id": {{test_case_id}}, "question": {{question}}}',
        response: { answer_path: '$.output' },
      },
      tool_catalog: { name: catalog.name, version: catalog.tool_schema_version },
      timeout_ms: TARGET_TIMEOUT_MS,
      max_retries: 1,
      rate_limit: { requests_per_second: 1_000, max_in_flight: 32 },
    });
    const run = await must<{ id: string }>('POST', 'v1/runs', { suite_id: 'soak', target_id: `agent-${label}`, config });
    return { label, id: run.id };
  };
  const statusOf = async (id: string): Promise<RunStatus> => (await must<RunView>('GET', `v1/runs/${id}`)).status;

  // ---- 1. the fault-free reference: same agent, same cases, no faults, no kills ----
  const reference = await submit('reference');
  const refStarted = performance.now();
  for (;;) {
    if (TERMINAL_RUN_STATUSES.has(await statusOf(reference.id))) break;
    if (performance.now() - refStarted > 600_000) throw new Error('the fault-free reference run did not end within 10 minutes');
    await sleep(250);
  }
  log(
    `fault-free reference run ${reference.id}: ${await statusOf(reference.id)} in ${((performance.now() - refStarted) / 1000).toFixed(1)} s`,
  );

  // ---- 2. the soak: runs submitted along the way, SIGKILL at random points, poison written while it is down ----
  let kills = 0;
  let poisonSent = 0;
  const poisonIds: string[] = [];
  const open = async (): Promise<Submitted[]> => {
    const out: Submitted[] = [];
    for (const r of runs) if (!TERMINAL_RUN_STATUSES.has(await statusOf(r.id))) out.push(r);
    return out;
  };
  const injectPoison = (): void => {
    const db = openHostDatabase(dataDir);
    try {
      const engine = new SqliteQueueEngine(db);
      const victim = runs.at(-1)!.id;
      const caseId = caseIds[kills % caseIds.length]!;
      const tag = `soak-poison-${kills}`;
      const batch: Array<[string, unknown]> = [
        // not an object at all
        [QUEUES.evaluate, 'garbage: not a case message'],
        // a real run and case, fields missing or of the wrong type
        [QUEUES.evaluate, { run_id: victim, test_case_id: caseId, attempt: 'first', stage: 'evaluate' }],
        // a judge message whose state lost its stages (the finding of issue 16)
        [
          QUEUES.judge,
          { run_id: victim, test_case_id: caseId, attempt: 1, stage: 'judge', state: { run_id: victim, test_case_id: caseId } },
        ],
        // an execute message whose state belongs to another case
        [QUEUES.execute, { run_id: victim, test_case_id: caseId, attempt: 1, stage: 'execute', state: 42 }],
      ];
      for (const [i, [queue, body]] of batch.entries()) {
        const messageId = `${tag}-${i}`;
        engine.send(queue, [{ messageId, body }]);
        poisonIds.push(messageId);
        poisonSent++;
      }
    } finally {
      db.close();
    }
  };

  const submitEvery = Math.max(1, Math.floor(KILLS / RUNS));
  runs.push(await submit('soak-1'));
  log(`run ${runs[0]!.id} submitted (soak-1)`);
  for (;;) {
    // another run every KILLS/RUNS kills; and while kills are owed, never fewer than one open run
    const stillOpen = await open();
    if ((runs.length < RUNS && kills >= runs.length * submitEvery) || (kills < KILLS && stillOpen.length === 0)) {
      const run = await submit(`soak-${runs.length + 1}`);
      runs.push(run);
      log(`run ${run.id} submitted (${run.label}) after ${kills} kills`);
    } else if (kills >= KILLS && runs.length >= RUNS) break;
    await sleep(rnd.int(KILL_MIN_MS, KILL_MAX_MS));
    await platform!.kill();
    kills++;
    injectPoison();
    await start();
    if (kills % 5 === 0) log(`${kills} kills, ${(await open()).length} of ${runs.length} runs open, ${poisonSent} poison messages`);
  }
  log(`${kills} SIGKILLs done; waiting up to ${FINAL_WAIT_MS / 1000} s for the open runs to end`);
  const waitFrom = performance.now();
  while ((await open()).length > 0 && performance.now() - waitFrom < FINAL_WAIT_MS) await sleep(500);

  // ---- 3. check every run ----
  const cardsOf = async (id: string): Promise<Scorecard[]> => {
    const all: Scorecard[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = await must<{ items: Scorecard[]; has_more: boolean }>('GET', `v1/runs/${id}/scorecards?limit=1000&offset=${offset}`);
      all.push(...page.items);
      if (!page.has_more) return all;
    }
  };
  const refCards = new Map((await cardsOf(reference.id)).map((c) => [c.test_case_id, c]));
  if (refCards.size !== caseIds.length) throw new Error(`the reference run has ${refCards.size} scorecards for ${caseIds.length} cases`);
  let lost = 0;
  let duplicated = 0;
  let stuck = 0;
  let differing = 0;
  let healthyCompared = 0;
  for (const run of runs) {
    const view = await must<RunView>('GET', `v1/runs/${run.id}`);
    const cards = await cardsOf(run.id);
    const check = checkSoakRun({ status: view.status, stats: view.stats, cards }, caseIds, refCards, (id) =>
      faulted.has(`${run.label}|${id}`),
    );
    for (const id of check.differing.slice(0, 3)) {
      log(
        `  ${run.id} ${id} differs: ${verdictOf(cards.find((c) => c.test_case_id === id)!)} vs fault-free ${verdictOf(refCards.get(id)!)}`,
      );
    }
    const s = view.stats;
    const { recount } = check;
    log(
      `run ${run.id} (${run.label}): ${view.status}, ${cards.length} scorecards for ${caseIds.length} cases, stats completed ${s?.completed ?? '-'} passed ${s?.passed ?? '-'} not scored ${s?.not_scored ?? '-'} (recount ${recount.completed}/${recount.passed}/${recount.not_scored}), ${check.healthy} healthy cases compared: lost ${check.lost}, duplicated ${check.duplicated}, stuck ${check.stuck}, differing ${check.differing.length}`,
    );
    lost += check.lost;
    duplicated += check.duplicated;
    stuck += check.stuck;
    differing += check.differing.length;
    healthyCompared += check.healthy;
  }
  const deadLetters = await Promise.all(
    Object.values(QUEUES).map(
      async (q) => (await must<{ items: Array<{ message_id: string; reason: string }> }>('GET', `v1/dead-letters/${q}?limit=1000`)).items,
    ),
  );
  const dl = deadLetters.flat();
  const poison = new Set(poisonIds);
  const dlPoison = dl.filter((m) => poison.has(m.message_id)).length;
  for (const m of dl.filter((m) => !poison.has(m.message_id)).slice(0, 5)) log(`  dead letter ${m.message_id}: ${m.reason}`);
  log(
    `target calls ${calls}, failed ${[...faultCounts.values()].reduce((a, b) => a + b, 0)} (${[...faultCounts].map(([f, n]) => `${f} ${n}`).join(', ')}); poison sent ${poisonSent}, dead-lettered ${dlPoison}; other dead letters ${dl.length - dlPoison}`,
  );
  log(
    `${kills} SIGKILLs, ${runs.length} runs, ${healthyCompared} healthy case scorecards compared with the fault-free run; total ${elapsed()}`,
  );
  await platform!.stop();
  if (lost + duplicated + stuck + differing > 0) exitCode = 1;
  console.log(
    `lost ${lost}, duplicated ${duplicated}, stuck ${stuck}, healthy cases scored differently from a fault-free run ${differing}`,
  );
} finally {
  await platform?.kill();
  await agent.close();
  if (!values['keep-data']) await rm(dataDir, { recursive: true, force: true });
  else console.error(`data kept in ${dataDir}`);
}
process.exit(exitCode);
