import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Alert, alertId, type Run, type RunStats, type Scorecard } from '../domain/index.js';
import { wilsonInterval } from '../statistics/index.js';
import { buildRunReport, type ReportDeps } from './buildRunReport.js';
import { RunReportSchema } from './reportModel.js';
import { HOSTILE_CASE_ID, HOSTILE_QUESTION, retailRunsFixture, type RetailPlatform } from './testing/retailPlatform.test-helpers.js';

let retail: RetailPlatform;
let head: Run & { stats: RunStats };
let base: Run & { stats: RunStats };
let deps: ReportDeps;

beforeAll(async () => {
  ({ retail, head, base } = await retailRunsFixture());
  deps = { stores: retail.platform.services.stores, clock: retail.platform.services.clock };
});
afterAll(async () => retail?.stop());

async function scorecards(runId: string): Promise<Scorecard[]> {
  const cards: Scorecard[] = [];
  for await (const c of deps.stores.scorecards.iterateScorecards(runId)) cards.push(c);
  return cards;
}

describe('buildRunReport on the retail sample (model B)', () => {
  it('takes every figure from RunStats and validates against its schema', async () => {
    const report = await buildRunReport(head.id, deps);
    expect(RunReportSchema.parse(report)).toEqual(report);
    const stats = (await deps.stores.runStats.getRunStats(head.id))!;
    expect(report.stats).toEqual(stats);
    const w = wilsonInterval(272, 327);
    expect(report.pass_rate).toEqual({ passed: 272, n: 327, rate: 272 / 327, lower: w.lower, upper: w.upper });
    expect([stats.passed, stats.completed]).toEqual([272, 327]);
    expect(report.stages.map((s) => [s.stage, s.ran, s.passed])).toEqual(
      Object.entries(stats.stages).map(([k, v]) => [k, v.ran, v.passed]),
    );
    expect(Object.fromEntries(report.categories.map((c) => [c.category, { completed: c.rate.n, passed: c.rate.passed }]))).toEqual(
      stats.by_category,
    );
    expect(report.categories.find((c) => c.category === 'refunds')!.rate.rate).toBeCloseTo(28 / 47, 10);
    expect(report.error_codes.reduce((n, e) => n + e.count, 0)).toBe(Object.values(stats.error_codes).reduce((n, v) => n + v, 0));
  });

  it('counts the funnel, the histogram and the failures from the scorecards', async () => {
    const report = await buildRunReport(head.id, deps, { maxFailures: 10 });
    const cards = await scorecards(head.id);
    const failing = cards.filter((c) => !c.overall_passed);
    expect(report.funnel.at(-1)!.remaining).toBe(report.stats.passed);
    expect(report.funnel[0]).toEqual({
      stage: 'syntax',
      ran: 327,
      remaining: cards.filter((c) => c.stages.syntax.status === 'passed').length,
    });
    expect(report.latency_histogram.bins.reduce((n, b) => n + b.count, 0)).toBe(327);
    expect(report.latency_histogram.bins.at(-1)!.to_ms).toBeNull();
    expect(report.failures.total).toBe(failing.length);
    expect(report.failures.cases).toHaveLength(10);
    for (const c of report.failures.cases) {
      const card = failing.find((f) => f.test_case_id === c.test_case_id)!;
      expect([c.failing_stage, c.error_code, c.category]).toEqual([card.failing_stage, card.error_code, card.category]);
      expect(c.question).toEqual(expect.any(String));
    }
  });

  it('lists a failing case with its (hostile) question, message and diff', async () => {
    const report = await buildRunReport(head.id, deps, { maxFailures: 1000 });
    // expected calls from the gold case, actual ones from the run's scorecard: the report's side-by-side diff
    const [gold] = await deps.stores.testCases.getTestCases([HOSTILE_CASE_ID]);
    const card = (await deps.stores.scorecards.listScorecards(head.id, { passed: false }, { limit: 1000 })).items.find(
      (c) => c.test_case_id === HOSTILE_CASE_ID,
    );
    expect(gold!.expected_tool_calls.length).toBeGreaterThan(0);
    expect(report.failures.cases.find((c) => c.test_case_id === HOSTILE_CASE_ID)).toEqual({
      test_case_id: HOSTILE_CASE_ID,
      question: HOSTILE_QUESTION,
      category: 'orders',
      failing_stage: 'syntax',
      status: 'failed',
      error_code: 'schema_violation',
      message: 'search_orders: argument /placed_after must match format "date", got string "10/10/2026"',
      diff: [],
      score: 0,
      latency_ms: expect.any(Number),
      expected_calls: gold!.expected_tool_calls.map((c) => ({ tool_name: c.tool_name, arguments: c.arguments })),
      actual_calls: card!.generated_tool_calls.map((c) => ({ tool_name: c.tool_name, arguments: c.arguments })),
    });
    // a diff line that only restates the message is left out; the others stay
    const mismatch = report.failures.cases.find((c) => c.test_case_id === 'retail-0084')!;
    expect([mismatch.message, mismatch.diff]).toEqual(['search_products: /sort expected "rating", got "relevance"', []]);
    const wrongTool = report.failures.cases.find((c) => c.test_case_id === 'retail-0045')!;
    expect([wrongTool.message, wrongTool.diff]).toEqual([
      'wrong tool: called get_customer where search_orders was expected',
      ['missing call search_orders', 'unexpected call get_customer'],
    ]);
  });

  it('with compareWith: the Comparison of base and head, and the flipped cases with their questions', async () => {
    const report = await buildRunReport(head.id, deps, { compareWith: base.id, maxFlipped: 5 });
    const section = report.comparison!;
    expect([section.base_run.id, section.comparison.run_ids]).toEqual([base.id, [base.id, head.id]]);
    const pair = section.comparison.pairs[0]!;
    expect(pair.by_category.find((g) => g.key === 'refunds')).toMatchObject({ significant: true, newly_failing: 18, newly_passing: 4 });
    expect([section.newly_failing.total, section.newly_passing.total]).toEqual([
      pair.flipped.newly_failing.total,
      pair.flipped.newly_passing.total,
    ]);
    expect(section.newly_failing.cases.map((c) => c.test_case_id)).toEqual(
      pair.flipped.newly_failing.cases.slice(0, 5).map((c) => c.test_case_id),
    );
    expect(section.newly_failing.cases.find((c) => c.test_case_id === HOSTILE_CASE_ID)).toMatchObject({
      question: HOSTILE_QUESTION,
      failing_stage: 'syntax',
      error_code: 'schema_violation',
    });
    // newly passing cases are described by the base run's failure
    const passing = section.newly_passing.cases[0]!;
    const flip = pair.flipped.newly_passing.cases[0]!;
    expect([passing.failing_stage, passing.error_code, passing.question]).toEqual([
      flip.baseline.failing_stage,
      flip.baseline.error_code,
      expect.any(String),
    ]);
    await expect(buildRunReport(head.id, deps, { compareWith: 'no-base' })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it("includes the run's alerts, and 404s an unknown run", async () => {
    const now = new Date().toISOString();
    const alert: Alert = {
      id: alertId(head.id, 'accuracy'),
      run_id: head.id,
      baseline_run_id: 'base',
      client_id: null,
      suite_id: head.suite_id,
      target_id: head.target_id,
      metric: 'accuracy',
      severity: 'critical',
      previous: 0.878,
      current: 0.832,
      change: -4.6,
      change_unit: 'points',
      threshold: -5,
      p_value: 0.004,
      test: 'exact McNemar',
      affected_categories: [],
      message: 'accuracy fell',
      live: false,
      paired_cases: 327,
      status: 'open',
      created_at: now,
      updated_at: now,
      acknowledged_at: null,
      acknowledged_by: null,
      delivery: { status: 'none', attempts: 0, last_error: null, delivered_at: null },
    };
    await retail.platform.services.stores.alerts.upsertAlert(alert);
    try {
      expect((await buildRunReport(head.id, deps)).alerts).toEqual([alert]);
      expect((await buildRunReport(head.id, { ...deps, stores: { ...deps.stores, alerts: undefined } })).alerts).toBeNull();
    } finally {
      await retail.platform.services.stores.alerts.deleteAlert(alert.id);
    }
    await expect(buildRunReport('no-such-run', deps)).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});
