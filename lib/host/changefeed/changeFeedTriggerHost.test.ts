import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionCallback, FunctionRegistration } from '../registration.js';
import { feedRegistration, TempDatabase, testInvoke, waitUntil } from '../servicebus/testSupport.js';
import { ChangeLog } from './changeLog.js';
import { ChangeFeedTriggerHost, type ChangeFeedTriggerHostOptions } from './changeFeedTriggerHost.js';
import { DocumentContainers } from './documentContainers.js';

type Doc = Record<string, unknown> & { id: string };
const ids = (docs: unknown) => (docs as Doc[]).map((d) => d.id);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `d${String(from + i).padStart(4, '0')}`);

describe('ChangeFeedTriggerHost', () => {
  let temp: TempDatabase;
  let hosts: ChangeFeedTriggerHost[];

  beforeEach(() => {
    temp = new TempDatabase();
    hosts = [];
  });
  afterEach(async () => {
    await Promise.all(hosts.map((h) => h.stop({ timeoutInMs: 0 })));
    temp.dispose();
  });

  function setup(registrations: FunctionRegistration[], options: ChangeFeedTriggerHostOptions = {}) {
    const changeLog = new ChangeLog(temp.db);
    const containers = new DocumentContainers(temp.db, changeLog);
    const host = new ChangeFeedTriggerHost(temp.db, changeLog, testInvoke, { pollIntervalMs: 10, ...options });
    for (const r of registrations) host.add(r);
    hosts.push(host);
    return { changeLog, containers, host };
  }

  const collector =
    (batches: string[][], extra?: FunctionCallback): FunctionCallback =>
    (docs, ctx) => {
      batches.push(ids(docs));
      return extra?.(docs, ctx);
    };

  it('delivers batches of at most maxItemsPerInvocation, in write order, with the stored documents', async () => {
    const batches: string[][] = [];
    const delivered: unknown[] = [];
    const reg = feedRegistration(
      'agg',
      { containerName: 'sc', maxItemsPerInvocation: 100, startFromBeginning: true },
      collector(batches, (docs) => void delivered.push(...(docs as unknown[]))),
    );
    const { containers, host } = setup([reg]);
    const stored = containers.upsert(
      'sc',
      range(0, 250).map((id) => ({ id, score: 1 })),
    );
    host.start();
    await waitUntil(() => batches.flat().length === 250);
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(batches.flat()).toEqual(range(0, 250));
    expect(delivered).toEqual(stored);
  });

  it('delivers only the latest version of a document written twice within a batch, at its latest position', async () => {
    const delivered: Doc[][] = [];
    const reg = feedRegistration('agg', { containerName: 'sc', startFromBeginning: true }, (docs) => void delivered.push(docs as Doc[]));
    const { containers, host } = setup([reg]);
    containers.upsert('sc', [
      { id: 'a', v: 1 },
      { id: 'b', v: 1 },
    ]);
    containers.upsert('sc', [{ id: 'a', v: 2 }]);
    host.start();
    await waitUntil(() => delivered.length === 1);
    expect(delivered[0]!.map((d) => [d.id, d.v])).toEqual([
      ['b', 1],
      ['a', 2],
    ]);
  });

  it.each([
    ['false starts at the end of the log', false, ['new1', 'new2']],
    ['true starts at the beginning', true, ['old1', 'old2', 'new1', 'new2']],
  ])('startFromBeginning %s', async (_label, startFromBeginning, expected) => {
    const batches: string[][] = [];
    const { changeLog, host } = setup([feedRegistration('agg', { containerName: 'sc', startFromBeginning }, collector(batches))]);
    changeLog.append('sc', [{ id: 'old1' }, { id: 'old2' }]);
    host.start();
    changeLog.append('sc', [{ id: 'new1' }, { id: 'new2' }]);
    await waitUntil(() => batches.flat().includes('new2'));
    expect(batches.flat()).toEqual(expected);
  });

  it('keeps its checkpoint across a restart: nothing skipped, duplicates only from the batch in flight', async () => {
    const batches: string[][] = [];
    let generation = 1;
    const handler =
      (gen: number): FunctionCallback =>
      async (docs) => {
        await sleep(2);
        if (gen !== generation) throw new Error('stopped host');
        batches.push(ids(docs));
      };
    const options = { containerName: 'sc', maxItemsPerInvocation: 50, startFromBeginning: true };
    let { changeLog, host } = setup([feedRegistration('agg', options, handler(1))]);
    changeLog.append(
      'sc',
      range(0, 600).map((id) => ({ id })),
    );
    host.start();
    await waitUntil(() => batches.flat().length >= 300);
    await host.stop({ timeoutInMs: 1 });
    generation = 2;
    changeLog.append(
      'sc',
      range(600, 1000).map((id) => ({ id })),
    );
    temp.reopen();
    ({ changeLog, host } = setup([feedRegistration('agg', options, handler(2))]));
    host.start();
    await waitUntil(() => batches.flat().includes('d0999'));
    const seen = batches.flat();
    const firstSeen = seen.filter((id, i) => seen.indexOf(id) === i);
    expect(firstSeen).toEqual(range(0, 1000));
    expect(seen.length - 1000).toBeLessThanOrEqual(50);
    const firstDuplicate = seen.findIndex((id, i) => seen.indexOf(id) !== i);
    if (firstDuplicate >= 0) expect(seen.slice(firstDuplicate)).toEqual(range(Number(seen[firstDuplicate]!.slice(1)), 1000));
  });

  it('retries a failed batch (default policy) until it succeeds instead of dropping it', async () => {
    const attempts: string[][] = [];
    const reg = feedRegistration('agg', { containerName: 'sc', startFromBeginning: true }, (docs) => {
      attempts.push(ids(docs));
      if (attempts.length <= 3) throw new Error('store unavailable');
    });
    const { changeLog, host } = setup([reg]);
    changeLog.append('sc', [{ id: 'a' }, { id: 'b' }]);
    host.start();
    await waitUntil(() => attempts.length === 4);
    changeLog.append('sc', [{ id: 'c' }]);
    await waitUntil(() => attempts.length === 5);
    expect(attempts).toEqual([['a', 'b'], ['a', 'b'], ['a', 'b'], ['a', 'b'], ['c']]);
    expect(host.listFailedBatches()).toEqual([]);
  });

  it('records a batch whose explicit retries ran out, then moves on', async () => {
    const attempts: string[][] = [];
    const retry = { strategy: 'fixedDelay', retryStrategy: 'fixedDelay', maxRetryCount: 2, delayInterval: { seconds: 0 } };
    const reg = feedRegistration(
      'agg',
      { containerName: 'sc', startFromBeginning: true, maxItemsPerInvocation: 2 },
      (docs) => {
        attempts.push(ids(docs));
        if (ids(docs).includes('poison')) throw new TypeError('cannot fold');
      },
      retry,
    );
    const { changeLog, host } = setup([reg]);
    changeLog.append('sc', [{ id: 'poison' }, { id: 'a' }, { id: 'b' }]);
    host.start();
    await waitUntil(() => attempts.length === 4);
    expect(attempts).toEqual([['poison', 'a'], ['poison', 'a'], ['poison', 'a'], ['b']]);
    expect(host.listFailedBatches()).toEqual([
      {
        leaseId: 'agg',
        containerName: 'sc',
        firstSeq: expect.any(Number),
        lastSeq: expect.any(Number),
        documentIds: ['poison', 'a'],
        attempts: 3,
        error: 'TypeError: cannot fold',
        failedAt: expect.any(Date),
      },
    ]);
  });

  it('keeps independent checkpoints for two triggers on one container', async () => {
    const fast: string[][] = [];
    const slow: string[][] = [];
    let slowFails = true;
    const regs = [
      feedRegistration('stats', { containerName: 'sc', startFromBeginning: true }, collector(fast)),
      feedRegistration(
        'alerts',
        { containerName: 'sc', startFromBeginning: true, leaseContainerPrefix: 'p-' },
        collector(slow, () => {
          if (slowFails) throw new Error('not yet');
        }),
      ),
    ];
    const { changeLog, host } = setup(regs);
    changeLog.append('sc', [{ id: 'a' }, { id: 'b' }]);
    host.start();
    await waitUntil(() => fast.length === 1 && slow.length >= 2);
    const leases = () => temp.db.prepare('SELECT lease_id, seq FROM cf_leases ORDER BY lease_id').all();
    const last = changeLog.latestSeq('sc');
    expect(leases()).toEqual([
      { lease_id: 'p-alerts', seq: 0 },
      { lease_id: 'stats', seq: last },
    ]);
    slowFails = false;
    await waitUntil(() => (leases() as Array<{ seq: number }>).every((l) => l.seq === last));
    expect(fast).toEqual([['a', 'b']]);
    expect(slow.at(-1)).toEqual(['a', 'b']);
  });

  it('wakes up at once on an in-process write even with a long feedPollDelay', async () => {
    let deliveredAt = 0;
    const reg = feedRegistration('agg', { containerName: 'sc', feedPollDelay: 10_000 }, () => {
      deliveredAt = Date.now();
    });
    const { containers, host } = setup([reg], { pollIntervalMs: undefined });
    host.start();
    await sleep(20);
    const writtenAt = Date.now();
    containers.upsert('sc', [{ id: 'a' }]);
    await waitUntil(() => deliveredAt > 0, 2_000);
    expect(deliveredAt - writtenAt).toBeLessThan(200);
  });

  it('waits on stop for the batch in flight and checkpoints it', async () => {
    const batches: string[][] = [];
    const reg = feedRegistration(
      'agg',
      { containerName: 'sc', startFromBeginning: true },
      collector(batches, () => sleep(100)),
    );
    const { changeLog, host } = setup([reg]);
    changeLog.append('sc', [{ id: 'a' }]);
    host.start();
    await waitUntil(() => batches.length === 1);
    await host.stop({ timeoutInMs: 5_000 });
    expect(temp.db.prepare('SELECT seq FROM cf_leases').get()).toEqual({ seq: changeLog.latestSeq('sc') });
  });

  it.each([
    ['a trigger of another kind', { kind: 'serviceBusTrigger' }, {}, 'not a cosmosDBTrigger'],
    ['AllVersionsAndDeletes', {}, { changeFeedMode: 'AllVersionsAndDeletes' }, 'changeFeedMode'],
    ['startFromTime', {}, { startFromTime: '2025-01-01T00:00:00Z' }, 'startFromTime'],
    ['a missing containerName', {}, { containerName: undefined }, 'containerName'],
    ['a zero maxItemsPerInvocation', {}, { maxItemsPerInvocation: 0 }, 'maxItemsPerInvocation'],
    ['a bad retry', {}, { retry: { strategy: 'sometimes' } }, 'retry'],
  ])('rejects a registration with %s', (_label, change, trigger, message) => {
    const base = feedRegistration('f', { containerName: 'sc' }, () => undefined);
    const reg = { ...base, ...change, trigger: { ...base.trigger, ...trigger } } as FunctionRegistration;
    const { host } = setup([]);
    expect(() => host.add(reg)).toThrow(message);
  });
});
