/**
 * Queue throughput through a no-op trigger (not a test): `npx tsx lib/host/servicebus/queue.bench.ts [messages]`.
 * Per scenario: a fresh database file, messages with deterministic messageIds (duplicate detection on), sent in
 * batches of 1,000 while the trigger host consumes them; reports send-only, drain-only and end-to-end rates.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SqliteQueueEngine } from './queueEngine.js';
import { QueueTriggerHost } from './queueTriggerHost.js';
import type { QueueTriggerSettings } from './queueTriggerSettings.js';
import { queueRegistration, TempDatabase, testInvoke } from './testSupport.js';

const total = Number(process.argv[2] ?? 100_000);
const SEND_BATCH = 1_000;

interface Scenario {
  name: string;
  cardinality: 'one' | 'many';
  settings: QueueTriggerSettings;
}

const scenarios: Scenario[] = [
  { name: "'many' (batch 1000)", cardinality: 'many', settings: {} },
  { name: "'one' (maxConcurrentCalls 16)", cardinality: 'one', settings: {} },
  { name: "'one' (maxConcurrentCalls 64)", cardinality: 'one', settings: { maxConcurrentCalls: 64 } },
];

function messages(from: number, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    body: { runId: 'run-1', caseId: `case-${from + i}`, stage: 'logic', attempt: 1 },
    messageId: `run-1:case-${from + i}:logic`,
    applicationProperties: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
  }));
}

async function run(scenario: Scenario, mode: 'drain' | 'endToEnd'): Promise<number> {
  const temp = new TempDatabase();
  try {
    const engine = new SqliteQueueEngine(temp.db);
    let processed = 0;
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const reg = queueRegistration(
      'noop',
      'q',
      (input) => {
        processed += Array.isArray(input) ? input.length : 1;
        if (processed === total) done();
      },
      scenario.cardinality,
    );
    const host = new QueueTriggerHost(engine, testInvoke, { queues: { q: scenario.settings } });
    host.add(reg);
    if (mode === 'drain') for (let i = 0; i < total; i += SEND_BATCH) engine.send('q', messages(i, SEND_BATCH));
    const started = performance.now();
    host.start();
    if (mode === 'endToEnd') {
      for (let i = 0; i < total; i += SEND_BATCH) {
        engine.send('q', messages(i, SEND_BATCH));
        await nextTurn();
      }
    }
    await finished;
    await host.stop();
    const seconds = (performance.now() - started) / 1_000;
    const left = engine.counts('q');
    if (left.active + left.locked !== 0) throw new Error(`messages left: ${JSON.stringify(left)}`);
    return total / seconds;
  } finally {
    temp.dispose();
  }
}

async function sendOnly(): Promise<number> {
  const temp = new TempDatabase();
  try {
    const engine = new SqliteQueueEngine(temp.db);
    const started = performance.now();
    for (let i = 0; i < total; i += SEND_BATCH) engine.send('q', messages(i, SEND_BATCH));
    return total / ((performance.now() - started) / 1_000);
  } finally {
    temp.dispose();
  }
}

const fmt = (rate: number) => `${Math.round(rate).toLocaleString('en-US')} msg/s`;
console.log(`messages per scenario: ${total.toLocaleString('en-US')}`);
console.log(`send only (batches of ${SEND_BATCH}): ${fmt(await sendOnly())}`);
for (const scenario of scenarios) {
  const drain = await run(scenario, 'drain');
  const endToEnd = await run(scenario, 'endToEnd');
  console.log(`${scenario.name}: drain ${fmt(drain)}, send+consume end to end ${fmt(endToEnd)}`);
}
console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
