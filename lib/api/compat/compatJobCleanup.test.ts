import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stores } from '../../ports/index.js';
import { startTestPlatform, type TestPlatform } from '../apiPlatform.test-helpers.js';
import { cleanUpEvaluateJobs } from './compatJobCleanup.js';

let t: TestPlatform;
let server: Server;
let targetUrl: string;
let runner: string;
let admin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"response":"Open 9 to 17.","agent":"general","reason":"hours"}'),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
  t = await startTestPlatform('evalp-jobclean-');
  runner = await t.keyWith(['runner'], 'ci');
  admin = await t.keyWith(['platform-admin', 'suite-admin'], 'admin');
}, 60_000);

afterAll(async () => {
  await t?.stop();
  server?.close();
});

async function finishedJob(): Promise<string> {
  const started = await t.api('POST', 'evaluate', {
    key: runner,
    body: { target_url: targetUrl, questions: [{ question: 'Opening hours?', expected_outcome: { response: 'Open 9 to 17.' } }] },
  });
  expect(started.status).toBe(202);
  const id = (started.json as { job_id: string }).job_id;
  const until = Date.now() + 30_000;
  for (;;) {
    const job = (await t.api('GET', `evaluate/${id}`, { key: runner })).json as { status: string };
    if (job.status === 'completed' || job.status === 'failed') return id;
    if (Date.now() > until) throw new Error(`job ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Moves a finished job 40 days into the past (what the clock would do). */
async function age(stores: Stores, id: string): Promise<void> {
  const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
  await stores.runs.updateRun(id, { created_at: old, started_at: old, completed_at: old });
}

const ids = (body: unknown): string[] => (body as { items: Array<{ id: string }> }).items.map((i) => i.id);

describe('/api/evaluate job ownership and clean-up', () => {
  it('hides job suites and targets from lists, deletes old jobs (GET 410), keeps a shared target while a job uses it; resumable', async () => {
    const stores = t.platform.services.stores;
    const clock = t.platform.services.clock;
    const first = await finishedJob();
    const second = await finishedJob();
    const run = (await stores.runs.getRun(first))!;

    // owned: left out of the lists, shown with include_owned=true
    expect(ids((await t.api('GET', 'v1/test-suites', { key: admin })).json)).not.toContain(first);
    expect(ids((await t.api('GET', 'v1/test-suites?include_owned=true', { key: admin })).json)).toEqual(
      expect.arrayContaining([first, second]),
    );
    expect(ids((await t.api('GET', 'v1/target-systems', { key: admin })).json)).not.toContain(run.target_id);
    expect(ids((await t.api('GET', 'v1/target-systems?include_owned=true', { key: admin })).json)).toContain(run.target_id);
    expect((await t.api('GET', 'v1/test-suites?include_owned=maybe', { key: admin })).status).toBe(400);

    // a clean-up killed half-way (after the scorecards) is finished by the next pass
    await age(stores, first);
    const killing: Stores = {
      ...stores,
      suites: Object.assign(Object.create(Object.getPrototypeOf(stores.suites) as object) as Stores['suites'], stores.suites, {
        delete: async () => {
          throw new Error('killed');
        },
      }),
    };
    await expect(cleanUpEvaluateJobs({ stores: killing, clock }, { days: 30 })).rejects.toThrow('killed');
    expect(await stores.scorecards.countScorecards(first)).toBe(0);
    expect(await stores.runs.getRun(first)).toBeDefined();
    const gone = await t.api('GET', `evaluate/${first}`, { key: runner });
    expect(gone.status).toBe(200); // the run is still there: the job is still shown until its run is deleted

    const report = await cleanUpEvaluateJobs({ stores, clock }, { days: 30 });
    expect(report).toEqual({ cleaned: [first], targets_deleted: [] });
    expect(await stores.runs.getRun(first)).toBeUndefined();
    expect(await stores.suites.get(first)).toBeUndefined();
    expect(await stores.testCases.getTestCase(`${first}-q1`)).toBeUndefined();
    expect(await stores.runStats.getRunStats(first)).toBeUndefined();
    expect(await stores.targets.get(run.target_id)).toBeDefined(); // the second job still uses it

    const answer = await t.api('GET', `evaluate/${first}`, { key: runner });
    expect(answer.status).toBe(410);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.json).toMatchObject({
      status: 410,
      title: 'Gone',
      detail: expect.stringMatching(/cleaned up on .* 30 days after they finish/),
    });
    expect((await t.api('GET', `evaluate/${second}`, { key: runner })).status).toBe(200);
    expect((await t.api('GET', 'evaluate/job-never-was', { key: runner })).status).toBe(404);

    // the last job using the target takes it along; a second pass finds nothing
    await age(stores, second);
    expect(await cleanUpEvaluateJobs({ stores, clock }, { days: 30 })).toEqual({ cleaned: [second], targets_deleted: [run.target_id] });
    expect(await cleanUpEvaluateJobs({ stores, clock }, { days: 30 })).toEqual({ cleaned: [], targets_deleted: [] });
  }, 120_000);
});
