/**
 * Change-feed throughput (not a test): `npx tsx lib/host/changefeed/feed.bench.ts [documents]`.
 * Upserts scorecard-like documents in batches of 1,000 through DocumentContainers, then drains them through a
 * no-op cosmosDBTrigger with maxItemsPerInvocation 100 (Azure's default) and 1,000.
 */
import { feedRegistration, TempDatabase, testInvoke } from '../servicebus/testSupport.js';
import { ChangeLog } from './changeLog.js';
import { ChangeFeedTriggerHost } from './changeFeedTriggerHost.js';
import { DocumentContainers } from './documentContainers.js';

const total = Number(process.argv[2] ?? 100_000);
const fmt = (n: number) => `${Math.round(n).toLocaleString('en-US')} docs/s`;

function scorecard(i: number) {
  return {
    id: `run-1:case-${i}`,
    runId: 'run-1',
    shard: i % 16,
    overall_passed: i % 3 !== 0,
    overall_score: (i % 100) / 100,
    stages: [
      { stage: 'syntax', passed: true, score: 1 },
      { stage: 'logic', passed: i % 3 !== 0, score: 0.5 },
    ],
    latency_ms: 120 + (i % 50),
  };
}

for (const maxItemsPerInvocation of [100, 1_000]) {
  const temp = new TempDatabase();
  try {
    const changeLog = new ChangeLog(temp.db);
    const containers = new DocumentContainers(temp.db, changeLog);
    let writeStarted = performance.now();
    for (let i = 0; i < total; i += 1_000)
      containers.upsert(
        'scorecards',
        Array.from({ length: 1_000 }, (_, k) => scorecard(i + k)),
      );
    const writeRate = total / ((performance.now() - writeStarted) / 1_000);
    let seen = 0;
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const host = new ChangeFeedTriggerHost(temp.db, changeLog, testInvoke, { pollIntervalMs: 50 });
    host.add(
      feedRegistration('stats', { containerName: 'scorecards', startFromBeginning: true, maxItemsPerInvocation }, (docs) => {
        seen += (docs as unknown[]).length;
        if (seen === total) done();
      }),
    );
    writeStarted = performance.now();
    host.start();
    await finished;
    await host.stop();
    const drainRate = total / ((performance.now() - writeStarted) / 1_000);
    console.log(
      `${total.toLocaleString('en-US')} docs: upsert ${fmt(writeRate)}; feed drain (maxItemsPerInvocation ${maxItemsPerInvocation}) ${fmt(drainRate)}`,
    );
  } finally {
    temp.dispose();
  }
}
console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
