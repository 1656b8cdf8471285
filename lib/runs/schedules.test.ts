import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '../domain/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { tempStores } from '../alerts/retailRuns.test-helpers.js';
import { sampleClient, sampleRun, sampleSuite, sampleTarget } from '../ports/contracts/fixtures.js';
import type { Stores } from '../ports/index.js';
import { createRun } from './createRun.js';
import { dueScheduledRuns, lastFireTime, scheduledRunIds, scheduleProblem } from './schedules.js';

describe('scheduleProblem', () => {
  it.each(['0 0 2 * * *', '0 30 6 * * MON-FRI', '0 */15 * * * *', '30 0 0 1 * *', ' 0 0 2 * * * ', '0 0 9 13 * FRI', '0 0 9 * Jan Mon'])(
    'accepts %j',
    (expression) => {
      expect(scheduleProblem(expression)).toBeUndefined();
      expect(lastFireTime(expression, new Date('2026-03-01T12:00:00Z'))).toBeInstanceOf(Date);
    },
  );

  it.each<[string, string]>([
    ['', '"" has 0 field(s); a client schedule is six-field NCRONTAB'],
    ['0 2 * * *', 'Five fields is Unix cron: prepend the seconds, e.g. "0 0 2 * * *".'],
    ['01:00:00', 'TimeSpan intervals are not client schedules.'],
    ['@daily', '"@daily" has 1 field(s)'],
    ['0 0 25 * * *', 'the hour field "25" is not valid (25 is outside 0-23)'],
    ['0 61 2 * * *', 'the minute field "61" is not valid'],
    ['0 0 2 * * FUNDAY', 'the day-of-week field "FUNDAY" is not valid'],
    // cron-parser extras that NCrontab (Azure Functions timers) refuses
    ['0 0 2 * * 7', 'the day-of-week field "7" is not valid (7 is outside 0-6; Sunday is 0)'],
    ['0 0 2 ? * MON', 'the day field "?" is not valid'],
    ['0 0 2 L * *', 'the day field "L" is not valid'],
    ['0 0 2 30 2 *', '"0 0 2 30 2 *" never fires: no date matches its day, month and day-of-week together'],
    ['*/10 * * * * *', 'the second field "*/10" must be one number such as 0'],
  ])('refuses %j: %s', (expression, message) => {
    expect(scheduleProblem(expression)).toContain(message);
  });
});

describe('lastFireTime: NCRONTAB semantics, day-of-month AND day-of-week', () => {
  it.each([
    // cron-parser ORs restricted day fields and would answer 2026-02-27 (a Friday) and 2026-03-01T09:00 (day 1, a Sunday)
    ['0 0 9 13 * FRI', '2026-03-01T12:00:00Z', '2026-02-13T09:00:00.000Z'],
    ['0 0 9 13 * FRI', '2026-02-13T08:59:59Z', '2025-06-13T09:00:00.000Z'],
    ['0 0 9 1-7 * MON', '2026-03-01T12:00:00Z', '2026-02-02T09:00:00.000Z'],
    ['0 0 2 * * *', '2026-03-02T02:00:00Z', '2026-03-02T02:00:00.000Z'],
    ['0 0 2 * * *', '2026-03-02T01:59:59.999Z', '2026-03-01T02:00:00.000Z'],
    ['0 0 2 * * 7', '2026-03-02T02:00:00Z', undefined],
  ])('%j at %s last fired at %s', (expression, now, expected) => {
    expect(lastFireTime(expression, new Date(now))?.toISOString()).toBe(expected);
  });
});

const FIRE = '2026-03-02T02:00:00.000Z';
const STAMP = '20260302T020000000Z';
const temps = new TempDatabases();
afterEach(() => temps.closeAll());

interface Setup {
  stores: Stores;
  clock: { now: () => Date };
  /** orchestration instances started so far (the durable client's view) */
  instances: Set<string>;
  start: (runId: string) => Promise<boolean>;
}

async function setup(clients: Array<Partial<Client> & { id: string }>, now = '2026-03-02T02:00:30.000Z'): Promise<Setup> {
  const stores = tempStores(temps);
  await stores.targets.upsert(sampleTarget('target-1'));
  for (const suite of ['smoke', 'nightly', 'refunds', 'x', 'b', 's']) await stores.suites.upsert(sampleSuite(suite));
  for (const c of clients) await stores.clients.upsert({ ...sampleClient(c.id), schedule_cron: '0 0 2 * * *', ...c });
  const instances = new Set<string>();
  const start = async (runId: string) => {
    if (instances.has(runId)) return false;
    instances.add(runId);
    return true;
  };
  return { stores, clock: { now: () => new Date(now) }, instances, start };
}

async function runsOf(stores: Stores, clientId: string) {
  const page = await stores.runs.listRuns({ client_id: clientId }, { limit: 100, offset: 0 });
  return page.items
    .map((r) => ({ id: r.id, suite_id: r.suite_id, status: r.status, triggered_by: r.triggered_by, trigger_metadata: r.trigger_metadata }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

describe('dueScheduledRuns', () => {
  it('starts one run per suite for the fire time, the first suite under the id single-suite clients always had; a redelivery starts nothing', async () => {
    const s = await setup([{ id: 'acme', suite_ids: ['smoke', 'nightly', 'refunds'] }]);
    const first = await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, s.start);
    const ids = [`sched-acme-${STAMP}`, `sched-acme-nightly-${STAMP}`, `sched-acme-refunds-${STAMP}`];
    expect(first).toEqual({ started: ids, resumed: [], skipped: [] });
    const metadata = { schedule: '0 0 2 * * *', fire_time: FIRE };
    expect(await runsOf(s.stores, 'acme')).toEqual([
      { id: ids[0], suite_id: 'smoke', status: 'pending', triggered_by: 'schedule', trigger_metadata: metadata },
      { id: ids[1], suite_id: 'nightly', status: 'pending', triggered_by: 'schedule', trigger_metadata: metadata },
      { id: ids[2], suite_id: 'refunds', status: 'pending', triggered_by: 'schedule', trigger_metadata: metadata },
    ]);
    // the timer fires again within the lookback (redelivery, a second instance): same ids, nothing new
    expect(await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, s.start)).toEqual({ started: [], resumed: [], skipped: [] });
    expect([(await runsOf(s.stores, 'acme')).length, [...s.instances]]).toEqual([3, ids]);
  });

  it('finds a run stored before the upgrade under the single-suite id and does not duplicate it', async () => {
    const s = await setup([{ id: 'solo', suite_ids: ['smoke'] }]);
    await s.stores.runs.createRun(
      sampleRun(`sched-solo-${STAMP}`, { client_id: 'solo', suite_id: 'smoke', status: 'completed', triggered_by: 'schedule' }),
    );
    expect(await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, s.start)).toEqual({ started: [], resumed: [], skipped: [] });
    expect((await runsOf(s.stores, 'solo')).map((r) => [r.id, r.status])).toEqual([[`sched-solo-${STAMP}`, 'completed']]);
  });

  it('starts a run left pending by a crash between create and start, once', async () => {
    const s = await setup([{ id: 'acme', suite_ids: ['smoke', 'nightly'] }]);
    const id = `sched-acme-nightly-${STAMP}`;
    await createRun({ client_id: 'acme', suite_id: 'nightly', triggered_by: 'schedule', run_id: id }, s);
    expect(await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, s.start)).toEqual({
      started: [`sched-acme-${STAMP}`],
      resumed: [id],
      skipped: [],
    });
    // still pending (its orchestration has not planned it yet): start is asked again, answers "exists", nothing is reported
    expect(await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, s.start)).toEqual({ started: [], resumed: [], skipped: [] });
    expect([...s.instances].sort()).toEqual([`sched-acme-${STAMP}`, id]);
  });

  it('reports a failed start and starts that run at the next check', async () => {
    const s = await setup([{ id: 'acme', suite_ids: ['smoke'] }]);
    const failing = async () => {
      throw new Error('task hub unavailable');
    };
    const id = `sched-acme-${STAMP}`;
    expect(await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, failing)).toEqual({
      started: [],
      resumed: [],
      skipped: [
        {
          client_id: 'acme',
          suite_id: 'smoke',
          run_id: id,
          reason: 'could not start: task hub unavailable; the run stays pending and is started again at the next check',
        },
      ],
    });
    expect(await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, s.start)).toEqual({ started: [], resumed: [id], skipped: [] });
  });

  it('gives ids that read alike across clients one run each, deterministically', async () => {
    // client "a" suite "b" and client "a-b" both read as sched-a-b-<fire time>
    const s = await setup([
      { id: 'a', suite_ids: ['x', 'b'] },
      { id: 'a-b', suite_ids: ['s'] },
    ]);
    const first = await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, s.start);
    const hashedA = scheduledRunIds('a', 'b', 1, new Date(FIRE))[1];
    const hashedAB = scheduledRunIds('a-b', 's', 0, new Date(FIRE))[1];
    expect(first.started.length).toBe(3);
    expect(first.started).toContain(`sched-a-b-${STAMP}`);
    expect(first.started.filter((id) => id === hashedA || id === hashedAB).length).toBe(1);
    expect((await runsOf(s.stores, 'a')).map((r) => r.suite_id).sort()).toEqual(['b', 'x']);
    expect((await runsOf(s.stores, 'a-b')).map((r) => r.suite_id)).toEqual(['s']);
    expect(await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, s.start)).toEqual({ started: [], resumed: [], skipped: [] });
  });

  it('uses a hashed id when the readable one is no valid run id (too long)', async () => {
    const long = `client-${'x'.repeat(90)}`;
    const s = await setup([{ id: long, suite_ids: ['smoke'] }]);
    const { started } = await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, s.start);
    expect(started).toEqual([expect.stringMatching(new RegExp(`^sched-[0-9a-f]{24}-${STAMP}$`))]);
    expect(scheduledRunIds(long, 'smoke', 0, new Date(FIRE))).toEqual(started);
    expect((await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, s.start)).started).toEqual([]);
  });

  it('skips what cannot start (a deleted suite, an unreadable stored schedule) and still starts the rest', async () => {
    const s = await setup([
      { id: 'acme', suite_ids: ['gone', 'smoke'] },
      { id: 'legacy', suite_ids: ['smoke'], schedule_cron: '0 0 2 * * 7' },
    ]);
    expect(await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, s.start)).toEqual({
      started: [`sched-acme-smoke-${STAMP}`],
      resumed: [],
      skipped: [
        { client_id: 'acme', suite_id: 'gone', reason: 'suite_id: "gone" does not exist' },
        { client_id: 'legacy', reason: expect.stringContaining('the day-of-week field "7" is not valid') },
      ],
    });
  });

  it.each([
    ['just before the lookback ends', '2026-03-02T02:05:00.000Z', 1],
    ['after the lookback', '2026-03-02T02:05:00.001Z', 0],
    ['before the fire time', '2026-03-02T01:59:59.999Z', 0],
  ])('a check %s starts %s run(s)', async (_, now, count) => {
    const s = await setup([{ id: 'acme', suite_ids: ['smoke'] }], now);
    expect((await dueScheduledRuns(s, { lookbackMs: 5 * 60_000 }, s.start)).started.length).toBe(count);
  });
});
