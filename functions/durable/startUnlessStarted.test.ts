import { describe, expect, it } from 'vitest';
import { ORCHESTRATOR_RUN_EVALUATION } from '../../lib/runs/index.js';
import { startUnlessStarted } from './startUnlessStarted.js';

/** A durable client whose getStatus behaves as `status` says; records what it was asked to start. */
function client(status: () => Promise<unknown>) {
  const started: [string, unknown][] = [];
  return {
    started,
    getStatus: async () => (await status()) as never,
    startNew: async (name: string, options?: unknown) => {
      started.push([name, options]);
      return 'id';
    },
  };
}

// The real durable client against the embedded host is exercised by functions/timers/clientSchedules.test.ts and
// lib/platform/triggers.e2e.test.ts (each scheduled or triggered run starts exactly once); these pin the decision.
describe('startUnlessStarted', () => {
  it('starts runEvaluation with the run id as instance id when the instance is unknown (durable-functions 3.x: HTTP 404)', async () => {
    const c = client(() =>
      Promise.reject(
        new Error(
          'DurableClient error: Durable Functions extension replied with HTTP 404 response. This usually means we could not find any data associated with the instanceId provided: run-1.',
        ),
      ),
    );
    expect(await startUnlessStarted(c, 'run-1')).toBe(true);
    expect(c.started).toEqual([[ORCHESTRATOR_RUN_EVALUATION, { instanceId: 'run-1', input: { run_id: 'run-1' } }]]);
  });

  it('starts nothing when the instance exists', async () => {
    const c = client(() => Promise.resolve({ runtimeStatus: 'Running' }));
    expect(await startUnlessStarted(c, 'run-1')).toBe(false);
    expect(c.started).toEqual([]);
  });

  it('passes any other status failure on and starts nothing', async () => {
    const c = client(() => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:7071')));
    await expect(startUnlessStarted(c, 'run-1')).rejects.toThrow(/ECONNREFUSED/);
    expect(c.started).toEqual([]);
  });
});
