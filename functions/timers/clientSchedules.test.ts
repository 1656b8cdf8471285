import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../lib/platform/embedded.js';
import { storeQuickstart } from '../../lib/app/quickstart.test-helpers.js';
import { TestSuiteSchema, type Run } from '../../lib/domain/index.js';
import { silentLogger } from '../../lib/host/index.js';
import { toTimerInput } from '../../lib/host/timer/startup.js';
import { createRun } from '../../lib/runs/createRun.js';
import { lastFireTime, scheduledRunIds } from '../../lib/runs/schedules.js';

const EVERY_MINUTE = '0 * * * * *';
let platform: EmbeddedPlatform;
let dataDir: string;
let fired: Date;

/** One invocation of the registered timer function, as the timer host would make it. */
async function tick(): Promise<void> {
  const registration = platform.host.registrations.find((r) => r.name === 'clientSchedules');
  if (!registration) throw new Error('clientSchedules is not registered');
  const now = platform.services.clock.now().getTime();
  await platform.host.invoke(
    registration,
    toTimerInput({ schedule: EVERY_MINUTE, last: now - 60_000, next: now, lastUpdated: now - 60_000 }, false),
  );
}

async function runsOf(clientId: string): Promise<Run[]> {
  return (await platform.services.stores.runs.listRuns({ client_id: clientId }, { limit: 100, offset: 0 })).items;
}

async function settled(clientId: string, count: number, timeoutMs = 15_000): Promise<Array<[string, string, string, number]>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const runs = await runsOf(clientId);
    if (runs.length === count && runs.every((r) => r.status === 'completed')) {
      return runs
        .map((r): [string, string, string, number] => [r.id, r.suite_id, r.status, r.total_cases])
        .sort((a, b) => a[0].localeCompare(b[0]));
    }
    if (Date.now() > until) throw new Error(`runs of ${clientId}: ${JSON.stringify(runs.map((r) => [r.id, r.status]))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-schedules-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
  // one fixed "now" for every check in this file, so they all see the same fire time
  const now = new Date();
  platform.services.clock = { now: () => now };
  fired = lastFireTime(EVERY_MINUTE, now) as Date;
  const { stores } = platform.services;
  const stamp = now.toISOString();
  const cases = await storeQuickstart(platform.services);
  const suite = (id: string, ids: string[]) =>
    TestSuiteSchema.parse({ id, name: id, kind: 'static', test_case_ids: ids, created_at: stamp, updated_at: stamp });
  await stores.suites.upsert(
    suite(
      'all',
      cases.map((c) => c.id),
    ),
  );
  await stores.suites.upsert(
    suite(
      'first-three',
      cases.slice(0, 3).map((c) => c.id),
    ),
  );
  const client = (id: string, suite_ids: string[]) => ({
    id,
    name: id,
    suite_ids,
    target_id: 'recorded',
    schedule_cron: EVERY_MINUTE,
    notify: [],
    created_at: stamp,
    updated_at: stamp,
  });
  await stores.clients.upsert(client('acme', ['all', 'first-three']));
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await rm(dataDir, { recursive: true, force: true });
});

describe('clientSchedules timer on the embedded platform', () => {
  it('runs every suite of a client once per fire time, however often the timer fires', async () => {
    await tick();
    const ids = [scheduledRunIds('acme', 'all', 0, fired)[0], scheduledRunIds('acme', 'first-three', 1, fired)[0]];
    expect(await settled('acme', 2)).toEqual([
      [ids[0], 'all', 'completed', 8],
      [ids[1], 'first-three', 'completed', 3],
    ]);
    await tick();
    await tick();
    expect((await runsOf('acme')).map((r) => r.id).sort()).toEqual(ids);
  });

  it('starts a scheduled run that was stored but never started (a crash between create and start)', async () => {
    const { stores } = platform.services;
    const now = platform.services.clock.now().toISOString();
    await stores.clients.upsert({
      id: 'crashed',
      name: 'crashed',
      suite_ids: ['first-three'],
      target_id: 'recorded',
      schedule_cron: EVERY_MINUTE,
      notify: [],
      created_at: now,
      updated_at: now,
    });
    const [id] = scheduledRunIds('crashed', 'first-three', 0, fired);
    await createRun({ client_id: 'crashed', triggered_by: 'schedule', run_id: id }, platform.services);
    await tick();
    expect(await settled('crashed', 1)).toEqual([[id, 'first-three', 'completed', 3]]);
  });
});
