import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionRegistration } from '../registration.js';
import { probe } from './__fixtures__/probe.js';
import { createHubEnv, eventually, loadDurableApp, type HubEnv } from './durable.test-helpers.js';
import type { StatusHistoryEntry } from './status.js';

let registrations: FunctionRegistration[];
let env: HubEnv;

beforeAll(async () => {
  registrations = await loadDurableApp();
});

beforeEach(() => {
  probe.runs.clear();
  probe.flakyFailures = 2;
  env = createHubEnv(registrations);
  env.hub.start();
});

afterEach(async () => {
  await env.close();
});

const eventTypes = (history: StatusHistoryEntry[] | undefined) => (history ?? []).map((entry) => entry.EventType);
const count = (types: string[], type: string) => types.filter((t) => t === type).length;

describe('TaskHub orchestrations', () => {
  it('completes a fan-out over 20 activities, a durable timer and an external event', async () => {
    const { hub } = env;
    const id = hub.startNew('fanOutTimerEvent', { instanceId: 'fan-1', input: { count: 20, delayMs: 40 } });
    const waiting = await eventually(() => {
      const status = hub.getStatus(id);
      return (status?.customStatus as { phase?: string } | null)?.phase === 'waiting' ? status : undefined;
    });
    expect(waiting).toMatchObject({ runtimeStatus: 'Running', customStatus: { phase: 'waiting', sum: 380 } });
    expect(hub.raiseEvent(id, 'Approve', { by: 'alice' })).toBe('raised');

    const final = await hub.waitForCompletion(id, { timeoutInMs: 5000 });
    expect(final).toMatchObject({
      name: 'fanOutTimerEvent',
      instanceId: 'fan-1',
      runtimeStatus: 'Completed',
      input: { count: 20, delayMs: 40 },
      output: { sum: 380, approval: { by: 'alice' } },
      customStatus: { phase: 'waiting', sum: 380 },
    });
    const history = hub.getStatus(id, { showHistory: true, showHistoryOutput: true })?.history ?? [];
    const types = eventTypes(history);
    expect(count(types, 'TaskCompleted')).toBe(20);
    expect(types.slice(-3)).toEqual(['TimerFired', 'EventRaised', 'ExecutionCompleted']);
    const timer = history.find((entry) => entry.EventType === 'TimerFired');
    const lastActivity = history.filter((entry) => entry.EventType === 'TaskCompleted').at(-1);
    expect(Date.parse(String(timer?.FireAt)) - Date.parse(String(lastActivity?.Timestamp))).toBeGreaterThanOrEqual(40);
    expect([...probe.runs.values()]).toEqual(Array.from({ length: 20 }, () => 1));
  });

  it.each([
    { label: 'the timer wins when no event comes', raise: false, expected: { winner: 'timer' } },
    { label: 'the event wins when it comes first', raise: true, expected: { winner: 'event', data: { go: true } } },
  ])('Task.any of an event and a timer: $label', async ({ raise, expected }) => {
    const { hub } = env;
    const id = hub.startNew('race', { input: { timeoutMs: raise ? 60_000 : 30 } });
    if (raise) hub.raiseEvent(id, 'Go', { go: true });
    const final = await hub.waitForCompletion(id, { timeoutInMs: 5000 });
    expect(final).toMatchObject({ runtimeStatus: 'Completed', output: expected });
    expect(env.db.prepare('SELECT COUNT(*) AS n FROM dt_inbox WHERE instance_id = ?').get(id)).toEqual({ n: 0 });
  });

  it('retries an activity that fails twice, waiting the retry interval, until it succeeds', async () => {
    const { hub } = env;
    const id = hub.startNew('retrying', { input: 'k1' });
    const final = await hub.waitForCompletion(id, { timeoutInMs: 5000 });
    expect(final).toMatchObject({ runtimeStatus: 'Completed', output: 'ok after 3' });
    expect(probe.runs.get('flaky:k1')).toBe(3);
    const history = hub.getStatus(id, { showHistory: true })?.history ?? [];
    expect(eventTypes(history).filter((t) => t !== 'ExecutionStarted' && t !== 'ExecutionCompleted')).toEqual([
      'TaskFailed',
      'TimerFired',
      'TaskFailed',
      'TimerFired',
      'TaskCompleted',
    ]);
    expect(history[1]).toMatchObject({ FunctionName: 'flaky', Reason: "Activity function 'flaky' failed: flaky failure 1" });
  });

  it('gives up after maxNumberOfAttempts and throws the last failure into the orchestrator', async () => {
    const { hub } = env;
    const id = hub.startNew('retryExhausted');
    const final = await hub.waitForCompletion(id, { timeoutInMs: 5000 });
    expect(final.runtimeStatus).toBe('Completed');
    expect((final.output as { caught: string }).caught).toMatch(/^Activity function 'alwaysFails' failed: boom \n Error: boom/);
    const types = eventTypes(hub.getStatus(id, { showHistory: true })?.history);
    expect(count(types, 'TaskFailed')).toBe(2);
  });

  it('runs sub-orchestrations (named and generated ids) and returns their results to the parent', async () => {
    const { hub } = env;
    const id = hub.startNew('parent', { instanceId: 'p1' });
    const final = await hub.waitForCompletion(id, { timeoutInMs: 5000 });
    expect(final).toMatchObject({
      runtimeStatus: 'Completed',
      output: [
        { doubled: 2, parent: 'p1' },
        { doubled: 4, parent: 'p1' },
        { doubled: 6, parent: 'p1' },
      ],
    });
    for (const child of ['p1-named', 'p1:0001', 'p1:0002']) {
      expect(hub.getStatus(child)).toMatchObject({ name: 'child', runtimeStatus: 'Completed' });
    }
  });

  it('reports a failed sub-orchestration to the parent as a catchable error', async () => {
    const { hub } = env;
    const id = hub.startNew('parentOfFailingChild', { instanceId: 'pf' });
    const final = await hub.waitForCompletion(id, { timeoutInMs: 5000 });
    expect(final.runtimeStatus).toBe('Completed');
    expect((final.output as { caught: string }).caught).toMatch(
      /^Orchestrator function 'failingChild' failed: Activity function 'alwaysFails' failed: boom/,
    );
    expect(hub.getStatus('pf:0000')?.runtimeStatus).toBe('Failed');
  });

  it('continues as new for 3 generations, carrying an early external event into the last one', async () => {
    const { hub } = env;
    const id = hub.startNew('counter', { input: { generation: 1, seen: [] } });
    hub.raiseEvent(id, 'Finish', 'early');
    const final = await hub.waitForCompletion(id, { timeoutInMs: 5000 });
    expect(final).toMatchObject({
      runtimeStatus: 'Completed',
      input: { generation: 3, seen: [2, 4] },
      output: { seen: [2, 4, 6], event: 'early' },
      customStatus: { generation: 3 },
    });
    const history = hub.getStatus(id, { showHistory: true, showHistoryOutput: true })?.history ?? [];
    expect(history[0]).toMatchObject({ EventType: 'ExecutionStarted', Input: { generation: 3, seen: [2, 4] } });
    expect(eventTypes(history)).toEqual(['ExecutionStarted', 'EventRaised', 'TaskCompleted', 'ExecutionCompleted']);
  });

  it('resolves nested Task.any / Task.all (replay schema V3 keeps compound actions)', async () => {
    const { hub } = env;
    const final = await hub.waitForCompletion(hub.startNew('nested'), { timeoutInMs: 5000 });
    expect(final).toMatchObject({ runtimeStatus: 'Completed', output: { first: 'fast', doubled: [20, 40] } });
  });

  it('retries a failing sub-orchestration with a new child instance per attempt', async () => {
    const { hub } = env;
    const final = await hub.waitForCompletion(hub.startNew('retriesChild', { instanceId: 'rc', input: 'child-key' }), {
      timeoutInMs: 5000,
    });
    expect(final).toMatchObject({ runtimeStatus: 'Completed', output: 'ok after 3' });
    expect(['rc:0000', 'rc:0002', 'rc:0004'].map((id) => hub.getStatus(id)?.runtimeStatus)).toEqual(['Failed', 'Failed', 'Completed']);
  });

  it('shows the custom status of a running orchestration', async () => {
    const { hub } = env;
    const id = hub.startNew('waitsForever');
    const status = await eventually(() => (hub.getStatus(id)?.runtimeStatus === 'Running' ? hub.getStatus(id) : undefined));
    expect(status).toMatchObject({ runtimeStatus: 'Running', customStatus: 'waiting', output: null });
  });
});

describe('TaskHub with an injected clock', () => {
  it('fires a one-hour durable timer when the clock reaches it', async () => {
    await env.close();
    let clock = Date.parse('2030-01-01T00:00:00Z');
    env = createHubEnv(registrations, { now: () => clock });
    env.hub.start();
    const id = env.hub.startNew('race', { input: { timeoutMs: 3_600_000 } });
    await eventually(() => env.hub.getStatus(id)?.runtimeStatus === 'Running');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(env.hub.getStatus(id)?.runtimeStatus).toBe('Running');
    clock += 3_600_000;
    env.hub.wake();
    const final = await env.hub.waitForCompletion(id, { timeoutInMs: 2000 });
    expect(final).toMatchObject({ runtimeStatus: 'Completed', output: { winner: 'timer' }, lastUpdatedTime: '2030-01-01T01:00:00.000Z' });
  });
});

describe('TaskHub long timers', () => {
  it('splits a 10-day timer into 3-day steps while more than 6 days remain, like the extension', async () => {
    await env.close();
    let clock = Date.parse('2030-01-01T00:00:00Z');
    env = createHubEnv(registrations, { now: () => clock });
    env.hub.start();
    const id = env.hub.startNew('longTimer', { input: { days: 10 } });
    const timersCreated = () => env.db.prepare('SELECT COUNT(*) AS n FROM dt_history WHERE event LIKE \'%"EventType":10,%\'').get();
    await eventually(() => (timersCreated() as { n: number }).n === 1);
    for (const days of [3, 3, 4]) {
      clock += days * 86_400_000;
      env.hub.wake();
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    const final = await env.hub.waitForCompletion(id, { timeoutInMs: 2000 });
    expect(final).toMatchObject({ runtimeStatus: 'Completed', output: '2030-01-11T00:00:00.000Z' });
    const history = env.hub.getStatus(id, { showHistory: true })?.history ?? [];
    expect(history.filter((e) => e.EventType === 'TimerFired').map((e) => e.FireAt)).toEqual([
      '2030-01-04T00:00:00.000Z',
      '2030-01-07T00:00:00.000Z',
      '2030-01-11T00:00:00.000Z',
    ]);
  });
});

describe('TaskHub scheduling', () => {
  it('wakes on in-process events and due timers, not on the poll interval', async () => {
    await env.close();
    env = createHubEnv(registrations, { pollIntervalMs: 60_000 });
    env.hub.start();
    const started = Date.now();
    const parent = env.hub.startNew('parent', { instanceId: 'wake' });
    const timed = env.hub.startNew('fanOutTimerEvent', { input: { count: 2, delayMs: 30 } });
    env.hub.raiseEvent(timed, 'Approve', true);
    const results = await Promise.all([parent, timed].map((id) => env.hub.waitForCompletion(id, { timeoutInMs: 3000 })));
    expect(results.map((status) => status.runtimeStatus)).toEqual(['Completed', 'Completed']);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
