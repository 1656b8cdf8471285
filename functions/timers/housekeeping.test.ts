import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../lib/platform/embedded.js';
import { caseOutcomeOf } from '../../lib/domain/index.js';
import { silentLogger } from '../../lib/host/index.js';
import { toTimerInput } from '../../lib/host/timer/startup.js';
import { sampleRun, sampleScorecard, sampleSuite } from '../../lib/ports/contracts/index.js';
import { HOUSEKEEPING_SCHEDULE } from '../../lib/app/index.js';

let platform: EmbeddedPlatform;
let dataDir: string;
const saved = { retention: process.env.EVALP_RETENTION_DAYS, jobs: process.env.EVALP_EVALUATE_JOB_RETENTION_DAYS };
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-housekeeping-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger, env: { ...process.env, EVALP_DEMO: 'off' } });
  process.env.EVALP_RETENTION_DAYS = '30';
  process.env.EVALP_EVALUATE_JOB_RETENTION_DAYS = '7';
}, 60_000);

afterAll(async () => {
  process.env.EVALP_RETENTION_DAYS = saved.retention;
  process.env.EVALP_EVALUATE_JOB_RETENTION_DAYS = saved.jobs;
  if (saved.retention === undefined) delete process.env.EVALP_RETENTION_DAYS;
  if (saved.jobs === undefined) delete process.env.EVALP_EVALUATE_JOB_RETENTION_DAYS;
  await platform?.stop({ timeoutInMs: 5_000 });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('housekeeping timer on the embedded platform', () => {
  it('is registered hourly; one tick applies retention (statistics kept) and deletes an old evaluation job', async () => {
    const registration = platform.host.registrations.find((r) => r.name === 'housekeeping');
    expect(registration?.trigger).toMatchObject({ type: 'timerTrigger', schedule: HOUSEKEEPING_SCHEDULE });
    const { stores } = platform.services;
    // a run finished 40 days ago, and an /api/evaluate job finished 10 days ago
    await stores.runs.createRun(
      sampleRun('old-run', { status: 'completed', created_at: daysAgo(41), completed_at: daysAgo(40), total_cases: 3 }),
    );
    const cards = [0, 1, 2].map((i) => sampleScorecard('old-run', `c${i}`, { passed: i > 0 }));
    await stores.scorecards.upsertScorecards(cards);
    await stores.runStats.applyOutcomes(cards.map(caseOutcomeOf), new Map([['old-run', 3]]));
    await stores.suites.create({ ...sampleSuite('job-x'), owner: { kind: 'evaluate-job', id: 'job-x' } });
    await stores.runs.createRun(
      sampleRun('job-x', {
        suite_id: 'job-x',
        status: 'completed',
        created_at: daysAgo(11),
        completed_at: daysAgo(10),
        trigger_metadata: { source: 'evaluate-compat' },
      }),
    );

    const now = Date.now();
    await platform.host.invoke(
      registration!,
      toTimerInput({ schedule: HOUSEKEEPING_SCHEDULE, last: now - 3_600_000, next: now, lastUpdated: now }, false),
    );

    expect(await stores.scorecards.countScorecards('old-run')).toBe(0);
    expect(await stores.runStats.getRunStats('old-run')).toMatchObject({ completed: 3, passed: 2 });
    expect((await stores.runs.getRun('old-run'))?.retention).toMatchObject({ retention_days: 30, cases_deleted_at: expect.any(String) });
    expect(await stores.runs.getRun('job-x')).toBeUndefined();
    expect(await stores.suites.get('job-x')).toBeUndefined();
    expect(await stores.cleanedJobs.get('job-x')).toMatchObject({ retention_days: 7 });
  }, 60_000);

  it("applies an organization's own retention period over the platform's, both ways", async () => {
    const registration = platform.host.registrations.find((r) => r.name === 'housekeeping')!;
    const { stores } = platform.services;
    await stores.organizations.create({ id: 'short', name: 'keeps 2 days', created_at: daysAgo(100), retention_days: 2 });
    await stores.organizations.create({ id: 'long', name: 'keeps 60 days', created_at: daysAgo(100), retention_days: 60 });
    const finished = async (id: string, organization: string | undefined, days: number) => {
      await stores.runs.createRun(
        sampleRun(id, {
          status: 'completed',
          created_at: daysAgo(days + 1),
          completed_at: daysAgo(days),
          total_cases: 1,
          ...(organization ? { organization } : {}),
        }),
      );
      await stores.scorecards.upsertScorecards([sampleScorecard(id, 'c0')]);
    };
    await finished('short-3d', 'short', 3); // past its organization's 2 days, well inside the platform's 30
    await finished('default-3d', undefined, 3); // the platform's 30 days
    await finished('long-40d', 'long', 40); // past the platform's 30, inside its organization's 60

    const now = Date.now();
    await platform.host.invoke(
      registration,
      toTimerInput({ schedule: HOUSEKEEPING_SCHEDULE, last: now - 3_600_000, next: now, lastUpdated: now }, false),
    );

    expect(await stores.scorecards.countScorecards('short-3d')).toBe(0);
    expect((await stores.runs.getRun('short-3d'))?.retention).toMatchObject({ retention_days: 2 });
    expect(await stores.scorecards.countScorecards('default-3d')).toBe(1);
    expect(await stores.scorecards.countScorecards('long-40d')).toBe(1);
    expect((await stores.runs.getRun('long-40d'))?.retention).toBeUndefined();
  }, 60_000);
});
