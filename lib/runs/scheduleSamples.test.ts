import { afterEach, describe, expect, it } from 'vitest';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { tempStores } from '../alerts/retailRuns.test-helpers.js';
import { sampleClient, sampleSuite, sampleTarget } from '../ports/contracts/fixtures.js';
import { dueScheduledRuns } from './schedules.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

/** "Nightly sample, weekly full": schedule entries carry their sample; same-minute entries start one run, the first listed. */
describe('client schedules with samples', () => {
  async function check(now: string) {
    const stores = tempStores(temps);
    await stores.targets.upsert(sampleTarget('target-1'));
    await stores.suites.upsert(sampleSuite('smoke'));
    await stores.clients.upsert({
      ...sampleClient('acme'),
      suite_ids: ['smoke'],
      config_overrides: { sample: { size: 2 } },
      schedules: [
        { cron: '0 0 2 * * 1', sample: null, label: 'weekly full' },
        {
          cron: '0 0 2 * * *',
          sample: { rate: 0.1, method: 'stratified', stratify_by: 'category', allocation: 'proportional', seed: 9 },
          label: 'nightly sample',
        },
        { cron: '0 0 3 * * *', label: 'client config' },
      ],
    });
    const started: string[] = [];
    const result = await dueScheduledRuns({ stores, clock: { now: () => new Date(now) } }, { lookbackMs: 5 * 60_000 }, async (id) => {
      started.push(id);
      return true;
    });
    const runs = await Promise.all(result.started.map(async (id) => (await stores.runs.getRun(id))!));
    return { result, runs };
  }

  it('Monday 02:00: the weekly full run (sample null overrides the client config), one run only', async () => {
    const { result, runs } = await check('2026-03-02T02:00:30.000Z');
    expect(result.skipped).toEqual([]);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.config.sample).toBeNull();
    expect(runs[0]!.trigger_metadata).toMatchObject({ schedule: '0 0 2 * * 1', schedule_label: 'weekly full' });
  });

  it('Tuesday 02:00: the nightly stratified sample; 03:00: the client config sample', async () => {
    const nightly = await check('2026-03-03T02:00:30.000Z');
    expect(nightly.runs).toHaveLength(1);
    expect(nightly.runs[0]!.config.sample).toMatchObject({ rate: 0.1, method: 'stratified', stratify_by: 'category', seed: 9 });
    expect(nightly.runs[0]!.trigger_metadata).toMatchObject({ schedule_label: 'nightly sample' });
    const third = await check('2026-03-03T03:00:30.000Z');
    expect(third.runs[0]!.config.sample).toMatchObject({ size: 2, method: 'simple' });
  });
});
