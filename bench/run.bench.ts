/**
 * npm run bench:run [-- --cases N --pool P --keep --no-profile]
 *
 * A whole run on the embedded default: N cases (default 400,000) against the replay target, stages 1-3 with
 * recorded execution (a JSONL cassette), through the real path: POST /api/v1/runs -> orchestrator -> enqueueShard
 * activities -> evaluate-cases and execute-cases queue workers -> scorecards -> change feed -> live statistics ->
 * RunCompleted -> finalizeRun. Prints setup time, run wall time, cases/s, peak RSS and database size, when each
 * phase ended (the orchestrator's fan-out, the last case scored, finalize), the CPU time per phase (bench/phaseProfile:
 * V8's sampling profiler, each sample charged to the platform code it ran), and a checksum of the run's live
 * statistics against a recount from its stored scorecards (a faster path must give the same answer).
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TargetSystemSchema, TestSuiteSchema, type TestCase } from '../lib/domain/index.js';
import { startEmbeddedPlatform } from '../lib/platform/embedded.js';
import { createApiKey } from '../lib/api/index.js';
import { silentLogger } from '../lib/host/index.js';
import { syntheticCatalog } from './fixtures/syntheticGoldSet.js';
import { writeRunSample } from './fixtures/pooledRunSample.js';
import { formatPhaseTimes, profilePhases } from './phaseProfile.js';
import { statsChecksum } from './statsChecksum.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '400000' },
    pool: { type: 'string', default: '20000' },
    keep: { type: 'boolean', default: false },
    'no-profile': { type: 'boolean', default: false },
  },
});
const count = Number(values.cases);
const mib = (b: number): string => `${(b / 1024 / 1024).toFixed(0)} MiB`;

const dir = await mkdtemp(join(tmpdir(), 'evalp-bench-run-'));
const dataDir = join(dir, 'data');
const outputsPath = join(dir, 'outputs.jsonl');
const cassettePath = join(dir, 'cassette.jsonl');
let t0 = performance.now();
const sample = await writeRunSample({ count, poolSize: Number(values.pool), outputsPath, cassettePath });
const platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
const { stores, apiKeys, clock } = platform.services;
const catalog = syntheticCatalog();
await stores.catalogs.upsert({ ...catalog, id: `${catalog.name}@${catalog.tool_schema_version}` });
let batch: TestCase[] = [];
for (const tc of sample.cases()) {
  batch.push(tc);
  if (batch.length === 1000) {
    await stores.testCases.upsertTestCases(batch);
    batch = [];
  }
}
if (batch.length) await stores.testCases.upsertTestCases(batch);
const now = clock.now().toISOString();
await stores.suites.upsert(
  TestSuiteSchema.parse({ id: 'bench', name: 'bench', kind: 'dynamic', filter: { tags: ['bench'] }, created_at: now, updated_at: now }),
);
await stores.targets.upsert(
  TargetSystemSchema.parse({
    id: 'replay',
    name: 'replay',
    settings: { kind: 'replay', outputs_path: outputsPath },
    tool_catalog: { name: catalog.name, version: catalog.tool_schema_version },
    created_at: now,
    updated_at: now,
  }),
);
const { key } = await createApiKey(apiKeys, { name: 'bench', roles: ['reader', 'runner'] }, clock);
const setupMs = performance.now() - t0;
/** the process's peak RSS so far (KiB -> bytes): after setup, when the run finalized, at the end */
const peakRss = (): number => process.resourceUsage().maxRSS * 1024;
const peakAfterSetup = peakRss();
const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

const stopProfile = !values['no-profile'] ? await profilePhases() : undefined;
const cpu0 = process.cpuUsage();
t0 = performance.now();
const created = (await (
  await fetch(`${platform.url}/api/v1/runs`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      suite_id: 'bench',
      target_id: 'replay',
      triggered_by: 'cli',
      config: { profile: 'release', execution: { provider: 'recorded', cassette_path: cassettePath } },
    }),
  })
).json()) as { id: string };
let view: {
  status: string;
  created_at: string;
  completed_at?: string | null;
  stats: { completed: number; passed: number; stages: Record<string, { pass_rate: number | null }> } | null;
  total_cases: number;
};
let lastPrint = 0;
/** when the orchestrator finished sending every case (its custom status left 'enqueueing'), and when the last case was scored */
const phaseEnd: { enqueued?: number; scored?: number } = {};
/** GET with retries: a poll can hit a keep-alive connection the server just closed (ECONNRESET). */
async function getJson<T>(url: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await (await fetch(url, { headers: auth })).json()) as T;
    } catch (err) {
      if (attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}
for (;;) {
  view = await getJson<typeof view>(`${platform.url}/api/v1/runs/${created.id}`);
  const at = performance.now() - t0;
  if (phaseEnd.enqueued === undefined) {
    const phase = (platform.host.taskHub.getStatus(created.id, { showInput: false })?.customStatus as { phase?: string } | null | undefined)
      ?.phase;
    if (phase !== undefined && phase !== 'enqueueing') phaseEnd.enqueued = at;
  }
  if (phaseEnd.scored === undefined && view.stats && view.stats.completed >= view.total_cases) phaseEnd.scored = at;
  if (['completed', 'failed', 'cancelled', 'timed_out'].includes(view.status)) break;
  if (performance.now() - lastPrint > 10_000) {
    lastPrint = performance.now();
    process.stderr.write(
      `  ${((performance.now() - t0) / 1000).toFixed(0)} s: ${view.stats?.completed ?? 0}/${view.total_cases} rss ${mib(process.memoryUsage().rss)}\n`,
    );
  }
  await new Promise((r) => setTimeout(r, 250));
}
const wallMs = performance.now() - t0;
const peakAtFinalize = peakRss();
const cpu = process.cpuUsage(cpu0);
const phases = await stopProfile?.();
const cards = await stores.scorecards.countScorecards(created.id);
const checksum = await statsChecksum(stores, created.id);
await platform.stop({ timeoutInMs: 10_000 });
const dbBytes =
  (await stat(join(dataDir, 'evalplatform.db'))).size + (await stat(join(dataDir, 'evalplatform.db-wal')).catch(() => ({ size: 0 }))).size;
const s = view.stats!;
console.log(
  `cases                 ${count.toLocaleString('en-US')} (calls from a pool of ${values.pool} cases; cassette ${sample.cassetteEntries.toLocaleString('en-US')} responses)`,
);
console.log(`setup (files, import) ${(setupMs / 1000).toFixed(1)} s`);
console.log(`run wall time         ${(wallMs / 1000).toFixed(1)} s   (target <= 60 s, issue 17)`);
console.log(`throughput            ${Math.round(count / (wallMs / 1000)).toLocaleString('en-US')} cases/s`);
console.log(
  `status                ${view.status}, ${s.completed} scored, ${cards} scorecards stored, pass rate ${((s.passed / s.completed) * 100).toFixed(1)}%`,
);
console.log(
  `stage pass rates      ${Object.entries(s.stages)
    .map(([k, v]) => `${k} ${v.pass_rate === null ? '-' : (v.pass_rate * 100).toFixed(1) + '%'}`)
    .join(', ')}`,
);
const sec = (ms: number | undefined): string => (ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`);
const stored = view.completed_at ? Date.parse(view.completed_at) - Date.parse(view.created_at) : undefined;
console.log(
  `timeline              all cases enqueued ${sec(phaseEnd.enqueued)}, last case scored ${sec(phaseEnd.scored)}, finalized ${sec(wallMs)} (polled every 250 ms; the run's stored completed_at is ${sec(stored)} after its created_at)`,
);
console.log(
  `CPU                   ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (user ${(cpu.user / 1e6).toFixed(1)} s, system ${(cpu.system / 1e6).toFixed(1)} s) = ${((cpu.user + cpu.system) / 1e3 / wallMs).toFixed(2)} cores on average`,
);
if (phases) {
  console.log(`CPU by phase          (main thread, sampled; ${(phases.totalMs / 1000).toFixed(1)} s)`);
  for (const line of formatPhaseTimes(phases)) console.log(line);
}
console.log(
  `statistics checksum   live ${checksum.live} vs recount ${checksum.recount}: ${checksum.live === checksum.recount ? 'equal' : 'DIFFERENT'}`,
);
console.log(
  `peak RSS              ${mib(peakRss())}   (target <= 1024 MiB, issue 17; the process's peak so far: ${mib(peakAfterSetup)} after setup, ${mib(peakAtFinalize)} when the run finalized, then the statistics recount and the run's Parquet export)`,
);
console.log(`database size         ${mib(dbBytes)}`);
if (!values.keep) await rm(dir, { recursive: true, force: true });
