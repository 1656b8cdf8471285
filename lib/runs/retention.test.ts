import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedStores } from '../adapters/embedded/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { collect, sampleAuditRecord, sampleRun, sampleScorecard } from '../ports/contracts/index.js';
import type { Stores } from '../ports/index.js';
import { caseOutcomeOf } from '../domain/index.js';
import { applyRetention, retentionNote } from './retention.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

const NOW = new Date('2026-06-01T00:00:00.000Z');
const clock = { now: () => NOW };
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();

async function seed(): Promise<Stores> {
  const { db, changeLog } = temps.open();
  const stores = createEmbeddedStores(db, changeLog);
  const finished = async (id: string, ageDays: number, cards: number, extra: Parameters<typeof sampleRun>[1] = {}) => {
    await stores.runs.createRun(
      sampleRun(id, {
        status: 'completed',
        created_at: daysAgo(ageDays + 1),
        completed_at: daysAgo(ageDays),
        total_cases: cards,
        ...extra,
      }),
    );
    const list = Array.from({ length: cards }, (_, i) => sampleScorecard(id, `c${i}`, { passed: i % 3 !== 0 }));
    await stores.scorecards.upsertScorecards(list);
    await stores.runStats.applyOutcomes(list.map(caseOutcomeOf), new Map([[id, cards]]));
    await stores.runs.putShards(id, [list.map((c) => c.test_case_id)]);
  };
  await finished('old', 40, 25);
  await finished('recent', 10, 4);
  await finished('team-short', 10, 3, { client_id: 'short' });
  await stores.runs.createRun(sampleRun('open', { status: 'running', created_at: daysAgo(50) }));
  await stores.scorecards.upsertScorecards([sampleScorecard('open', 'c0')]);
  await stores.audit.createAuditRecord({ ...sampleAuditRecord('audit-old'), at: daysAgo(31) });
  await stores.audit.createAuditRecord({ ...sampleAuditRecord('audit-new'), at: daysAgo(29) });
  return stores;
}

describe('applyRetention', () => {
  it('deletes the cards, outcomes and shards of runs past retention, keeps their statistics, marks them with a note; old audit records go', async () => {
    const stores = await seed();
    const statsBefore = await stores.runStats.getRunStats('old');
    const report = await applyRetention({ stores, clock }, { platformDays: 30 });
    expect(report).toEqual({
      runs_expired: ['old'],
      resumable: null,
      scorecards_deleted: 25,
      outcomes_deleted: 25,
      audit_records_deleted: 1,
    });
    expect(await stores.scorecards.countScorecards('old')).toBe(0);
    expect(await collect(stores.runStats.iterateOutcomes('old'))).toEqual([]);
    expect(await stores.runs.getShard('old', 0)).toBeUndefined();
    expect(await stores.runStats.getRunStats('old')).toEqual(statsBefore);
    const run = await stores.runs.getRun('old');
    expect(run?.retention).toEqual({ started_at: NOW.toISOString(), cases_deleted_at: NOW.toISOString(), retention_days: 30 });
    expect(run?.notes).toEqual([retentionNote(NOW.toISOString(), 30)]);
    // kept: younger runs, open runs, recent audit records
    expect(await stores.scorecards.countScorecards('recent')).toBe(4);
    expect(await stores.scorecards.countScorecards('open')).toBe(1);
    expect((await stores.audit.listAuditRecords()).items.map((r) => r.id)).toEqual(['audit-new']);
    // a second pass has nothing to do
    expect(await applyRetention({ stores, clock }, { platformDays: 30 })).toMatchObject({ runs_expired: [], scorecards_deleted: 0 });
  });

  it('a per-organization override (the tenancy hook) shortens or lengthens the platform period per run', async () => {
    const stores = await seed();
    const report = await applyRetention(
      { stores, clock },
      { platformDays: 30, overrideFor: (run) => (run.client_id === 'short' ? 5 : run.id === 'old' ? 60 : undefined) },
    );
    expect(report.runs_expired).toEqual(['team-short']);
    expect((await stores.runs.getRun('team-short'))?.retention?.retention_days).toBe(5);
    expect(await stores.scorecards.countScorecards('old')).toBe(25);
  });

  it('keeps everything without a retention period', async () => {
    const stores = await seed();
    expect(await applyRetention({ stores, clock }, {})).toMatchObject({
      runs_expired: [],
      scorecards_deleted: 0,
      audit_records_deleted: 0,
    });
    expect(await stores.scorecards.countScorecards('old')).toBe(25);
  });

  it('a pass killed mid-delete leaves the run marked as started; the next pass finishes it and loses nothing kept', async () => {
    const stores = await seed();
    const statsBefore = await stores.runStats.getRunStats('old');
    let calls = 0;
    const crashing: Stores = {
      ...stores,
      scorecards: Object.assign(
        Object.create(Object.getPrototypeOf(stores.scorecards) as object) as Stores['scorecards'],
        stores.scorecards,
        {
          deleteScorecards: async (runId: string, options?: { limit?: number }) => {
            if (++calls === 2) throw new Error('killed');
            return stores.scorecards.deleteScorecards(runId, options);
          },
        },
      ),
    };
    await expect(applyRetention({ stores: crashing, clock }, { platformDays: 30 }, { batchSize: 10 })).rejects.toThrow('killed');
    expect(await stores.scorecards.countScorecards('old')).toBe(15);
    const half = await stores.runs.getRun('old');
    expect(half?.retention).toEqual({ started_at: NOW.toISOString(), retention_days: 30 });
    expect(half?.notes).toEqual([]);

    const later = { now: () => new Date(NOW.getTime() + 3_600_000) };
    const report = await applyRetention({ stores, clock: later }, { platformDays: 30 }, { batchSize: 10 });
    expect(report.runs_expired).toEqual(['old']);
    expect(report.scorecards_deleted).toBe(15);
    expect(await stores.scorecards.countScorecards('old')).toBe(0);
    expect(await stores.runStats.getRunStats('old')).toEqual(statsBefore);
    expect((await stores.runs.getRun('old'))?.retention?.started_at).toBe(NOW.toISOString());
    expect(await stores.scorecards.countScorecards('recent')).toBe(4);
  });

  it('stops at maxDeletes with the run resumable; the next pass continues where it stopped', async () => {
    const stores = await seed();
    const first = await applyRetention({ stores, clock }, { platformDays: 30 }, { batchSize: 10, maxDeletes: 12 });
    expect(first).toMatchObject({ runs_expired: [], resumable: 'old', scorecards_deleted: 12 });
    const second = await applyRetention({ stores, clock }, { platformDays: 30 });
    expect(second).toMatchObject({ runs_expired: ['old'], resumable: null, scorecards_deleted: 13, outcomes_deleted: 25 });
  });
});
