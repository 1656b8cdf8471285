/**
 * Embedded host benchmark (`npm run bench:host` = `tsx bench/host.bench.ts`).
 * Measures messages/s through a no-op 'many' and a no-op 'one' queue trigger (queue prefilled, then drained by the
 * running host; and sent while the host runs), and an orchestration fanning out 400 no-op activities. Prints the
 * median over the repetitions and the peak RSS. Options: --messages N (100000), --repetitions N (3), --fan-out N (400).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openHostDatabase } from '../lib/host/database.js';
import { startHost, type EmbeddedHost } from '../lib/host/host.js';
import { SqliteQueueEngine, type OutboundMessage } from '../lib/host/servicebus/index.js';
import { BENCH, firstHandledAt, handled } from '../lib/host/testapp/benchCounters.js';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '100000' },
    repetitions: { type: 'string', default: '3' },
    'fan-out': { type: 'string', default: '400' },
  },
});
const MESSAGES = Number(values.messages);
const REPETITIONS = Number(values.repetitions);
const FAN_OUT = Number(values['fan-out']);
const SEND_BATCH = 1000;

type Mode = 'many' | 'one';
const queueOf = (mode: Mode) => (mode === 'many' ? BENCH.manyQueue : BENCH.oneQueue);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function batch(offset: number, size: number): OutboundMessage[] {
  return Array.from({ length: size }, (_, i) => ({ body: { caseId: offset + i, runId: 'bench' }, messageId: `bench:${offset + i}` }));
}

async function withHost<T>(prefill: ((dataDir: string) => void) | undefined, run: (host: EmbeddedHost) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'host-bench-'));
  try {
    prefill?.(dataDir);
    const host = await startHost({ entry: () => import('../lib/host/testapp/benchApp.js'), dataDir, port: 0, pollIntervalMs: 20 });
    try {
      return await run(host);
    } finally {
      await host.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function drained(host: EmbeddedHost, mode: Mode): Promise<void> {
  const queue = queueOf(mode);
  // counts() scans the queue: only look once every message has been handled, then wait for the settlements
  while (handled[mode] < MESSAGES) await pause(5);
  for (;;) {
    const counts = host.queues.counts(queue);
    if (counts.active + counts.locked + counts.scheduled === 0) return;
    await pause(5);
  }
}

/** Queue filled before the host starts; time from the first invocation until every message is completed. */
async function drainRate(mode: Mode): Promise<number> {
  handled[mode] = 0;
  firstHandledAt[mode] = 0;
  const prefill = (dataDir: string) => {
    const db = openHostDatabase(dataDir);
    const engine = new SqliteQueueEngine(db);
    for (let offset = 0; offset < MESSAGES; offset += 10_000)
      engine.send(queueOf(mode), batch(offset, Math.min(10_000, MESSAGES - offset)));
    db.close();
  };
  return withHost(prefill, async (host) => {
    await drained(host, mode);
    return MESSAGES / ((performance.now() - firstHandledAt[mode]) / 1000);
  });
}

/** Host running; sends in batches of 1000 (yielding between batches) while the trigger drains. */
async function endToEndRate(mode: Mode): Promise<number> {
  handled[mode] = 0;
  return withHost(undefined, async (host) => {
    const t0 = performance.now();
    for (let offset = 0; offset < MESSAGES; offset += SEND_BATCH) {
      host.queues.send(queueOf(mode), batch(offset, Math.min(SEND_BATCH, MESSAGES - offset)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await drained(host, mode);
    return MESSAGES / ((performance.now() - t0) / 1000);
  });
}

async function fanOutSeconds(): Promise<number> {
  return withHost(undefined, async (host) => {
    const t0 = performance.now();
    const instanceId = host.taskHub.startNew(BENCH.fanOut, { input: FAN_OUT });
    const status = await host.taskHub.waitForCompletion(instanceId, { timeoutInMs: 120_000 });
    if (status.runtimeStatus !== 'Completed' || status.output !== FAN_OUT) {
      throw new Error(`fan-out ended ${status.runtimeStatus} with ${JSON.stringify(status.output)}`);
    }
    return (performance.now() - t0) / 1000;
  });
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function measure(label: string, unit: string, sample: () => Promise<number>, digits = 0): Promise<[string, number]> {
  const samples: number[] = [];
  for (let i = 0; i < REPETITIONS; i += 1) samples.push(await sample());
  const value = median(samples);
  console.log(
    `${label.padEnd(44)} ${value.toFixed(digits).padStart(10)} ${unit}   (samples: ${samples.map((s) => s.toFixed(digits)).join(', ')})`,
  );
  return [label, Number(value.toFixed(digits === 0 ? 0 : 3))];
}

console.log(
  `embedded host benchmark: ${MESSAGES} messages per queue run, fan-out ${FAN_OUT}, median of ${REPETITIONS}, node ${process.version}`,
);
const results = [
  await measure("queue 'many' no-op, prefilled drain", 'msg/s', () => drainRate('many')),
  await measure("queue 'many' no-op, send while running", 'msg/s', () => endToEndRate('many')),
  await measure("queue 'one' no-op, prefilled drain", 'msg/s', () => drainRate('one')),
  await measure("queue 'one' no-op, send while running", 'msg/s', () => endToEndRate('one')),
  await measure(`orchestration fan-out of ${FAN_OUT} activities`, 's', fanOutSeconds, 3),
];
const peakRssMb = process.resourceUsage().maxRSS / 1024;
console.log(`peak RSS ${peakRssMb.toFixed(0)} MB`);
console.log(
  JSON.stringify({
    benchmark: 'host',
    messages: MESSAGES,
    fanOut: FAN_OUT,
    repetitions: REPETITIONS,
    results: Object.fromEntries(results),
    peakRssMb: Math.round(peakRssMb),
  }),
);
