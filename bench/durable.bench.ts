/**
 * npx tsx bench/durable.bench.ts [-- --runs 5 --activities 400 --shards 40 --per-shard 100 --concurrency 16]
 *
 * Times the embedded task hub (SQLite file in a temp dir, WAL, the host's real InvokeFunction) on:
 *  - one orchestration fanning out `activities` activities (Task.all), and
 *  - one orchestration fanning out `shards` sub-orchestrations of `per-shard` activities each.
 * Each run uses a fresh database. Prints the median / min / max wall time from startNew to completion, the median
 * CPU time of the process, episodes replayed, activities per second (by median wall time) and the peak RSS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { captureRegistrations } from '../lib/host/capture.js';
import { openHostDatabase } from '../lib/host/database.js';
import { TaskHub } from '../lib/host/durable/index.js';
import { createInvoker } from '../lib/host/invoke.js';
import type { FunctionRegistration } from '../lib/host/registration.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    activities: { type: 'string', default: '400' },
    shards: { type: 'string', default: '40' },
    'per-shard': { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '16' },
  },
});
const runs = Number(values.runs);
const concurrency = Number(values.concurrency);

interface Sample {
  ms: number;
  /** User + system CPU of this process during the run (less sensitive than wall time to a busy machine). */
  cpuMs: number;
  episodes: number;
  activities: number;
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const peakRssMiB = (): string => `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`;

async function once(registrations: FunctionRegistration[], orchestrator: string, input: object, activities: number): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), 'evalp-durable-bench-'));
  const db = openHostDatabase(dir);
  const invoke = createInvoker({
    queues: { send: () => ({ accepted: 0, duplicates: 0 }) },
    containers: { upsert: () => undefined },
  });
  const hub = new TaskHub(db, registrations, invoke, { maxConcurrentActivities: concurrency });
  hub.start();
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const id = hub.startNew(orchestrator, { input });
    const final = await hub.waitForCompletion(id, { timeoutInMs: 600_000 });
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    if (final.runtimeStatus !== 'Completed' || final.output !== activities) {
      throw new Error(`${orchestrator} ended ${final.runtimeStatus} with ${JSON.stringify(final.output)}`);
    }
    return { ms, cpuMs, episodes: hub.episodeCount, activities };
  } finally {
    await hub.stop({ timeoutInMs: 1000 });
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(label: string, samples: Sample[]): void {
  const ms = samples.map((s) => s.ms);
  const med = median(ms);
  const activities = samples[0]?.activities ?? 0;
  console.log(
    `${label}: median ${med.toFixed(0)} ms wall (min ${Math.min(...ms).toFixed(0)}, max ${Math.max(...ms).toFixed(0)}), ` +
      `median ${median(samples.map((s) => s.cpuMs)).toFixed(0)} ms CPU, over ${samples.length} runs; ` +
      `${median(samples.map((s) => s.episodes))} episodes; ${((activities / med) * 1000).toFixed(0)} activities/s; peak RSS ${peakRssMiB()}`,
  );
}

async function main(): Promise<void> {
  const registrations = await captureRegistrations(() => import('./fixtures/durableBenchApp.js'));
  const fanOut = Number(values.activities);
  const shards = Number(values.shards);
  const perShard = Number(values['per-shard']);
  console.log(`durable bench: ${runs} runs each, maxConcurrentActivities ${concurrency}, node ${process.version}`);
  const fanOutSamples: Sample[] = [];
  for (let i = 0; i < runs; i++) fanOutSamples.push(await once(registrations, 'benchFanOut', { activities: fanOut }, fanOut));
  report(`fan-out ${fanOut} activities`, fanOutSamples);
  const shardSamples: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    shardSamples.push(await once(registrations, 'benchShards', { shards, activities: perShard }, shards * perShard));
  }
  report(`${shards} shard sub-orchestrations x ${perShard} activities`, shardSamples);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
