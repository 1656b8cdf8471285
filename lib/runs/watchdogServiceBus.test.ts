import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedStores } from '../adapters/embedded/stores.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { FakeServiceBus } from '../adapters/azure/serviceBusFake.test-helpers.js';
import { ServiceBusDeadLetters, ServiceBusQueuePort, ServiceBusRunQueues } from '../adapters/azure/index.js';
import { sampleRun } from '../ports/contracts/fixtures.js';
import { runHealth } from './runHealth.js';
import { checkStalledRuns } from './watchdog.js';

// The watchdog and the run view's health as the Azure app wires them: run figures from peeked Service Bus queues
// (here the in-memory FakeServiceBus), runs in a real store.

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

describe('run health and the watchdog on Service Bus (ServiceBusRunQueues)', () => {
  it('a run with dead letters and nothing left is stalled with the reason; after a replay it runs again', async () => {
    const { db, changeLog } = temps.open();
    const stores = createEmbeddedStores(db, changeLog);
    const bus = new FakeServiceBus();
    // no peek cache: the replay below must be seen by the very next check (the timer's checks are a minute apart)
    const services = { stores, runQueues: new ServiceBusRunQueues(bus, { cacheMs: 0 }), clock: { now: () => new Date() } };
    await stores.runs.createRun(sampleRun('run-sb', { status: 'running', total_cases: 3, started_at: new Date().toISOString() }));
    bus.seedDeadLetters(
      'judge-cases',
      [{ messageId: 'run-sb:c1:judge:1', correlationId: 'run-sb', body: { run_id: 'run-sb', test_case_id: 'c1', stage: 'judge' } }],
      { reason: 'ProcessingFailed', description: 'failed 5 times; last error: TypeError: boom' },
    );

    // the run view shows it (it was null in Azure before)
    const health = await runHealth(services, (await stores.runs.getRun('run-sb'))!);
    expect(health).toMatchObject({ waiting: 0, deferred: 0, dead_lettered: 1, circuit: null });
    expect(health?.last_error).toMatch(/^ProcessingFailed: failed 5 times; last error: TypeError: boom \(/);

    const first = await checkStalledRuns(services, { stallAfterMs: 600_000 });
    expect(first.stalled).toEqual([
      {
        run_id: 'run-sb',
        reason: expect.stringMatching(/^stalled: 1 message\(s\) of this run are dead-lettered \(last: ProcessingFailed: /),
      },
    ]);
    expect((await stores.runs.getRun('run-sb'))!.status).toBe('stalled');

    // `evalp dlq replay` on Service Bus: the dead letter is sent again, so the run has work and no dead letters
    const replay = await new ServiceBusDeadLetters(bus, { maxWaitTimeInMs: 1 }).replayDeadLetters('judge-cases');
    expect(replay.replayed).toBe(1);
    const second = await checkStalledRuns(services, { stallAfterMs: 600_000 });
    expect(second.resumed).toEqual(['run-sb']);
    expect((await stores.runs.getRun('run-sb'))!.status).toBe('running');
  });

  it('a run whose cases are put off (scheduled) is not stalled for lack of progress; one with nothing at all is', async () => {
    const { db, changeLog } = temps.open();
    const stores = createEmbeddedStores(db, changeLog);
    const bus = new FakeServiceBus();
    const services = { stores, runQueues: new ServiceBusRunQueues(bus), clock: { now: () => new Date() } };
    const longAgo = new Date(Date.now() - 3_600_000).toISOString();
    await stores.runs.createRun(sampleRun('run-put-off', { status: 'running', total_cases: 2, started_at: longAgo, created_at: longAgo }));
    await stores.runs.createRun(sampleRun('run-idle', { status: 'running', total_cases: 2, started_at: longAgo, created_at: longAgo }));
    await new ServiceBusQueuePort(bus).sendMessages('evaluate-cases', [
      {
        messageId: 'run-put-off:c1:evaluate:1:d1.1',
        correlationId: 'run-put-off',
        body: { run_id: 'run-put-off', test_case_id: 'c1', attempt: 1, stage: 'evaluate' },
        scheduledEnqueueTimeUtc: new Date(Date.now() + 30_000),
      },
    ]);
    const result = await checkStalledRuns(services, { stallAfterMs: 60_000 });
    expect(result.stalled.map((s) => s.run_id)).toEqual(['run-idle']);
    expect(result.stalled[0]!.reason).toMatch(/^stalled: no progress for 60 minute\(s\) \(0 of 2 cases in, 0 message\(s\) waiting\)/);
    expect((await stores.runs.getRun('run-put-off'))!.status).toBe('running');
  });
});
