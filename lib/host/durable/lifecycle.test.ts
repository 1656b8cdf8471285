import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionRegistration } from '../registration.js';
import { probe } from './__fixtures__/probe.js';
import { createHubEnv, eventually, loadDurableApp, type HubEnv } from './durable.test-helpers.js';
import { DurableHubError } from './errors.js';

let registrations: FunctionRegistration[];
let env: HubEnv;

beforeAll(async () => {
  registrations = await loadDurableApp();
});

beforeEach(() => {
  probe.runs.clear();
  probe.gates = [];
  env = createHubEnv(registrations);
  env.hub.start();
});

afterEach(async () => {
  await env.close();
});

const rowCounts = (id: string) =>
  Object.fromEntries(
    ['dt_instances', 'dt_history', 'dt_inbox', 'dt_work'].map((table) => {
      const row = env.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE instance_id = ?`).get(id) as { n: number };
      return [table, row.n];
    }),
  );

const errorOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('TaskHub instance management', () => {
  it('terminates a running instance: Terminated with the reason, work dropped, late results ignored', async () => {
    const { hub } = env;
    const id = hub.startNew('gatedFanOut', { input: { count: 3 } });
    await eventually(() => probe.gates.length === 3);
    expect(hub.terminate(id, 'enough')).toBe('terminated');
    expect(hub.getStatus(id)).toMatchObject({ runtimeStatus: 'Terminated', output: 'enough' });
    probe.gates.forEach((open) => open());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rowCounts(id)).toEqual({ dt_instances: 1, dt_history: 6, dt_inbox: 0, dt_work: 0 });
    expect(hub.getStatus(id)?.runtimeStatus).toBe('Terminated');
    expect(hub.terminate(id, 'again')).toBe('alreadyTerminal');
    expect(hub.raiseEvent(id, 'Anything', 1)).toBe('gone');
  });

  it('tells the parent when a child is terminated', async () => {
    const { hub } = env;
    const parent = hub.startNew('parentOfWaiter', { instanceId: 'tp' });
    await eventually(() => hub.getStatus('tp-child')?.runtimeStatus === 'Running');
    expect(hub.terminate('tp-child', 'stop child')).toBe('terminated');
    const final = await hub.waitForCompletion(parent, { timeoutInMs: 5000 });
    expect(final).toMatchObject({
      runtimeStatus: 'Completed',
      output: { caught: "Sub-orchestration 'tp-child' was terminated: stop child \n " },
    });
  });

  it('purges an instance with its history, inbox and work items', async () => {
    const { hub } = env;
    const id = hub.startNew('gatedFanOut', { instanceId: 'to-purge', input: { count: 2 } });
    await eventually(() => probe.gates.length === 2);
    expect(hub.purge(id)).toBe(1);
    expect(hub.getStatus(id)).toBeUndefined();
    expect(rowCounts(id)).toEqual({ dt_instances: 0, dt_history: 0, dt_inbox: 0, dt_work: 0 });
    expect(hub.purge(id)).toBe(0);
  });

  it('refuses to start an instance id that is running, and restarts one that finished', async () => {
    const { hub } = env;
    hub.startNew('waitsForever', { instanceId: 'same' });
    expect(errorOf(() => hub.startNew('waitsForever', { instanceId: 'same' }))).toMatchObject({
      code: 'InstanceExists',
      message: "An orchestration instance with ID 'same' already exists and is Pending.",
    });
    hub.terminate('same', 'restart it');
    expect(hub.startNew('race', { instanceId: 'same', input: { timeoutMs: 1 } })).toBe('same');
    const final = await hub.waitForCompletion('same', { timeoutInMs: 5000 });
    expect(final).toMatchObject({ name: 'race', runtimeStatus: 'Completed', output: { winner: 'timer' } });
  });

  it.each([
    { label: 'an unknown orchestrator', call: () => env.hub.startNew('nope'), code: 'OrchestratorNotFound' },
    { label: 'an instance id with a slash', call: () => env.hub.startNew('race', { instanceId: 'a/b' }), code: 'InvalidInstanceId' },
    { label: 'an input JSON cannot hold', call: () => env.hub.startNew('race', { input: { n: BigInt(1) } }), code: 'InvalidInput' },
    { label: 'an empty event name', call: () => env.hub.raiseEvent('x', ''), code: 'InvalidEventName' },
  ])('rejects $label with DurableHubError $code', ({ call, code }) => {
    const error = errorOf(call);
    expect(error).toBeInstanceOf(DurableHubError);
    expect((error as DurableHubError).code).toBe(code);
  });

  it('answers notFound for events and terminations of unknown instances, and rejects waiting for them', async () => {
    const { hub } = env;
    expect(hub.raiseEvent('ghost', 'E', 1)).toBe('notFound');
    expect(hub.terminate('ghost', 'r')).toBe('notFound');
    await expect(hub.waitForCompletion('ghost', { timeoutInMs: 10 })).rejects.toThrow("No orchestration instance with ID 'ghost'.");
    const id = hub.startNew('waitsForever');
    await expect(hub.waitForCompletion(id, { timeoutInMs: 30 })).rejects.toThrow(/did not finish within 30 ms \(runtimeStatus: Running\)/);
  });

  it('lists instances by status and creation time, and purges by filter', async () => {
    const { hub } = env;
    const done = hub.startNew('race', { instanceId: 'list-done', input: { timeoutMs: 1 } });
    hub.startNew('waitsForever', { instanceId: 'list-running' });
    await hub.waitForCompletion(done, { timeoutInMs: 5000 });
    await eventually(() => hub.getStatus('list-running')?.runtimeStatus === 'Running');
    const ids = (statuses: Parameters<typeof hub.listStatuses>[0]) =>
      hub.listStatuses(statuses, { limit: 10, offset: 0 }).map((s) => s.instanceId);
    expect(ids({})).toEqual(['list-done', 'list-running']);
    expect(ids({ runtimeStatus: ['Running'] })).toEqual(['list-running']);
    expect(ids({ createdTimeFrom: Date.now() + 60_000 })).toEqual([]);
    expect(hub.purgeWhere({ runtimeStatus: ['Completed'] })).toBe(1);
    expect(ids({})).toEqual(['list-running']);
  });
});

describe('TaskHub restart', () => {
  it('resumes an orchestration after the database is closed mid-flight and reopened by a new hub', async () => {
    const id = env.hub.startNew('gatedFanOut', { instanceId: 'resume-me', input: { count: 6 } });
    await eventually(() => probe.gates.length === 6);
    probe.gates.slice(0, 3).forEach((open) => open());
    await eventually(() => {
      const row = env.db.prepare('SELECT COUNT(*) AS n FROM dt_work WHERE instance_id = ?').get(id) as { n: number };
      return row.n === 3;
    });
    await env.close({ keepDir: true });

    probe.gates = [];
    env = createHubEnv(registrations, {}, env.dir);
    env.hub.start();
    await eventually(() => probe.gates.length === 3);
    probe.gates.forEach((open) => open());
    const final = await env.hub.waitForCompletion(id, { timeoutInMs: 5000 });
    expect(final).toMatchObject({ runtimeStatus: 'Completed', output: 15 });
    expect(Object.fromEntries(probe.runs)).toEqual({
      'gated:0': 1,
      'gated:1': 1,
      'gated:2': 1,
      'gated:3': 2,
      'gated:4': 2,
      'gated:5': 2,
    });
    const attempts = env.db.prepare('SELECT COUNT(*) AS n FROM dt_work').get();
    expect(attempts).toEqual({ n: 0 });
  });
});
