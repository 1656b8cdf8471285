import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionRegistration } from '../registration.js';
import { probe } from './__fixtures__/probe.js';
import { createHubEnv, eventually, loadDurableApp, type HubEnv } from './durable.test-helpers.js';

let registrations: FunctionRegistration[];
let env: HubEnv;

beforeAll(async () => {
  registrations = await loadDurableApp();
});

beforeEach(() => {
  probe.mode = 'A';
  env = createHubEnv(registrations);
  env.hub.start();
});

afterEach(async () => {
  await env.close();
});

describe('TaskHub failures are data on the instance', () => {
  it('fails an orchestrator whose code changes between episodes with a NonDeterministicOrchestration message', async () => {
    const { hub } = env;
    const id = hub.startNew('flipFlop');
    await eventually(() => hub.getStatus(id, { showHistory: true })?.history?.some((e) => e.EventType === 'TaskCompleted'));
    probe.mode = 'B';
    hub.raiseEvent(id, 'Next', null);
    const final = await hub.waitForCompletion(id, { timeoutInMs: 5000 });
    expect(final.runtimeStatus).toBe('Failed');
    expect(final.output).toBe(
      "Orchestrator function 'flipFlop' failed: NonDeterministicOrchestration: at sequence number 0 the history of " +
        "orchestrator 'flipFlop' has a call to activity 'actA' (expected), but the replay now makes a call to activity " +
        "'actB' (actual). An orchestrator must make the same calls in the same order on every replay: was its code " +
        'changed while this instance was running, or does it branch on the clock, random numbers or mutable module state?',
    );
    expect(env.db.prepare("SELECT COUNT(*) AS n FROM dt_work WHERE name = 'actB'").get()).toEqual({ n: 0 });
  });

  it.each([
    {
      orchestrator: 'throws',
      output: /^Orchestrator function 'throws' failed: Activity function 'alwaysFails' failed: boom \n Error: boom\n/,
    },
    {
      orchestrator: 'usesEntity',
      output: /^Orchestrator function 'usesEntity' failed: the embedded host does not support callEntity \(durable entities\)\.$/,
    },
    {
      orchestrator: 'returnsBigInt',
      output: /^Orchestrator function 'returnsBigInt' failed: it produced a value that cannot be stored as JSON \(.*BigInt.*\)\.$/,
    },
  ])('marks $orchestrator Failed with an actionable output and no $OutOfProcData$ suffix', async ({ orchestrator, output }) => {
    const { hub } = env;
    const id = hub.startNew(orchestrator);
    const final = await hub.waitForCompletion(id, { timeoutInMs: 5000 });
    expect(final.runtimeStatus).toBe('Failed');
    expect(final.output).toMatch(output);
    expect(String(final.output)).not.toContain('$OutOfProcData$');
  });

  it('fails the task (not the hub) when an orchestrator calls an activity that does not exist', async () => {
    const { hub } = env;
    const final = await hub.waitForCompletion(hub.startNew('callsMissing'), { timeoutInMs: 5000 });
    expect(final).toMatchObject({
      runtimeStatus: 'Completed',
      output: { caught: "Activity function 'noSuchActivity' does not exist in this function app (or is not an activity). \n " },
    });
  });

  it('fails an instance whose orchestrator is no longer registered', async () => {
    const { hub } = env;
    const id = hub.startNew('waitsForever');
    await eventually(() => hub.getStatus(id)?.runtimeStatus === 'Running');
    await env.close({ keepDir: true });
    const withoutIt = registrations.filter((r) => r.name !== 'waitsForever');
    env = createHubEnv(withoutIt, {}, env.dir);
    env.hub.start();
    env.hub.raiseEvent(id, 'Never', 1);
    const final = await env.hub.waitForCompletion(id, { timeoutInMs: 5000 });
    expect(final).toMatchObject({
      runtimeStatus: 'Failed',
      output:
        "Orchestrator function 'waitsForever' failed: no orchestrator function named 'waitsForever' is registered in this function app.",
    });
  });
});
