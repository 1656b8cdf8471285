import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scorecard } from '../domain/index.js';
import { createApiKey } from '../api/apiKeys.js';
import { startTestApi, type TestApi } from '../api/routes/apiTestPlatform.test-helpers.js';
import { sampleRun, sampleScorecard } from '../ports/contracts/fixtures.js';
import { buildRunReport, renderMarkdown } from '../reports/index.js';

let api: TestApi;
const keys: string[] = [];

/** 10 judged answers: the judge passes c0-c5 and fails c6-c9 (G-Eval judge gpt-test, rubric r1). */
function judged(i: number): Scorecard {
  const card = sampleScorecard('judged-run', `c${i}`);
  const pass = i < 6;
  card.stages.semantics = {
    stage: 'semantics',
    status: pass ? 'passed' : 'failed',
    passed: pass,
    score: pass ? 0.9 : 0.3,
    details: {
      judge: 'geval:gpt-test',
      method: 'llm',
      model: 'gpt-test',
      rubric_id: 'r1',
      reasoning: 'r',
      confidence: 1,
      cached: false,
      criteria: [{ name: 'correctness', score: pass ? 4.6 : 2.2 }],
    },
    duration_ms: 1,
  };
  return card;
}

beforeAll(async () => {
  api = await startTestApi();
  const { apiKeys, clock, stores } = api.platform.services;
  for (const name of ['h1', 'h2', 'h3']) keys.push((await createApiKey(apiKeys, { name, roles: ['annotator'] }, clock)).key);
  await stores.runs.createRun(sampleRun('judged-run', { status: 'completed' }));
  await stores.scorecards.upsertScorecards(Array.from({ length: 10 }, (_, i) => judged(i)));
}, 60_000);
afterAll(() => api.stop());

describe('judge calibration from an annotation task over a judged run', () => {
  it('kappa, raw agreement and confusion against labels whose agreement is known; stored; shown in the report', async () => {
    // uncalibrated: the report warns
    const before = await buildRunReport('judged-run', { stores: api.platform.services.stores, clock: api.platform.services.clock });
    expect(before.judging!.judges).toEqual([
      expect.objectContaining({
        judge_model: 'gpt-test',
        rubric_id: 'r1',
        calibration: null,
        warning: expect.stringMatching(/no calibration/),
      }),
    ]);
    expect(renderMarkdown(before)).toContain('has no calibration against human labels');

    const created = await api.call('POST', 'v1/annotation-tasks', {
      key: api.keys['test-admin'],
      body: { id: 'cal', name: 'calibration', source: { kind: 'run', run_id: 'judged-run' }, label_schema: { kind: 'pass_fail' } },
    });
    expect(created.status).toBe(201);
    // the people's consensus: pass on c0-c3 and c6-c7, fail on c4-c5 and c8-c9 (two of three agree, the third dissents)
    const human = (item: string) => (['c0', 'c1', 'c2', 'c3', 'c6', 'c7'].includes(item) ? 'pass' : 'fail');
    for (const [who, key] of keys.entries()) {
      for (;;) {
        const next = await api.call('GET', 'v1/annotation-tasks/cal/next', { key });
        if (next.status === 204) break;
        const item = next.json.item_id as string;
        expect(next.json.answer).toBe('It is sunny in Paris.');
        const label = who === 2 && item === 'c0' ? 'fail' : human(item);
        expect((await api.call('PUT', `v1/annotation-tasks/cal/items/${item}/label`, { key, body: { label } })).status).toBe(201);
      }
    }
    // stored pairwise verdicts of the same model: 3 of 4 survived the order swap (one of another model is ignored)
    for (const [i, consistent, model] of [
      [1, true, 'gpt-test'],
      [2, true, 'gpt-test'],
      [3, true, 'gpt-test'],
      [4, false, 'gpt-test'],
      [5, false, 'other'],
    ] as const) {
      await api.platform.services.stores.pairwiseVerdicts.upsert({
        id: `a~b~c${i}~${model}`,
        run_a: 'a',
        run_b: 'b',
        test_case_id: `c${i}`,
        category: null,
        winner: consistent ? 'A' : 'tie',
        consistent,
        score_a: 1,
        score_b: 0,
        model,
        reasoning: 'r',
        cost_usd: 0,
        created_at: '2026-03-01T12:00:00.000Z',
      });
    }
    const cal = await api.call('POST', 'v1/annotation-tasks/cal/calibrate', { key: api.keys['test-admin'] });
    expect(cal.status).toBe(200);
    // judge vs consensus: rows human [pass, fail], columns judge: pass/pass 4 (c0-c3), pass/fail 2 (c6, c7),
    // fail/pass 2 (c4, c5), fail/fail 2 (c8, c9): p_o = 0.6, p_e = 0.6 x 0.6 + 0.4 x 0.4 = 0.52, kappa = 0.08 / 0.48
    expect(cal.json).toMatchObject({
      id: 'gpt-test~r1',
      items: 10,
      skipped: 0,
      labels: ['pass', 'fail'],
      confusion: [
        [4, 2],
        [2, 2],
      ],
    });
    expect(cal.json.raw_agreement).toBeCloseTo(0.6, 12);
    expect(cal.json.kappa).toBeCloseTo(0.08 / 0.48, 12);
    expect(cal.json.position_swap).toEqual({ pairs: 4, consistent: 3, rate: 0.75 });
    expect(cal.json.provenance).toMatch(/annotation task cal \(3 annotators per item/);
    expect((await api.call('GET', 'v1/judge-calibrations')).json.items.map((c: { id: string }) => c.id)).toEqual(['gpt-test~r1']);

    const after = await buildRunReport('judged-run', { stores: api.platform.services.stores, clock: api.platform.services.clock });
    expect(after.judging!.judges[0]!.calibration).toMatchObject({ items: 10, task_id: 'cal' });
    expect(renderMarkdown(after)).toMatch(/calibrated on 10 items of task cal, Cohen's kappa 0\.167, raw agreement 0\.600/);
  });

  it('refuses a task over a suite or a free-text schema, naming why', async () => {
    await api.seedCases([{ id: 'x1' }]);
    await api.call('POST', 'v1/test-suites', {
      key: api.keys['suite-admin'],
      body: { id: 'xs', name: 'xs', kind: 'static', test_case_ids: ['x1'] },
    });
    await api.call('POST', 'v1/annotation-tasks', {
      key: api.keys['test-admin'],
      body: { id: 'suite-task', name: 's', source: { kind: 'suite', suite_id: 'xs' }, label_schema: { kind: 'pass_fail' } },
    });
    const r = await api.call('POST', 'v1/annotation-tasks/suite-task/calibrate', { key: api.keys['test-admin'] });
    expect(r.status).toBe(400);
    expect(r.json.detail).toMatch(/needs a task over a run/);
  });
});
