import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedStores } from '../adapters/embedded/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { outcomeKindOf, type Run, type TestCase } from '../domain/index.js';
import { runSemanticsStage } from '../evaluation/semantics/runSemanticsStage.js';
import { JudgeError, type Clock, type Judge, type Stores } from '../ports/index.js';
import { sampleRun, sampleScorecard, sampleTestCase } from '../ports/contracts/fixtures.js';
import { finishedStatus } from '../runs/finalizeRun.js';
import { BudgetLedger, budgetAlertId, budgetedJudge } from './budget.js';
import { scopedStores } from './scopedServices.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

function setup(): { stores: Stores; clock: Clock & { at: Date }; ledger: BudgetLedger } {
  const { db, changeLog } = temps.open();
  const stores = createEmbeddedStores(db, changeLog);
  const clock = { at: new Date('2026-03-20T10:00:00.000Z'), now: () => clock.at };
  return { stores, clock, ledger: new BudgetLedger(stores, clock, { cacheMs: 0 }) };
}

/** A run of `org` created in March 2026 with one scorecard per cost (USD), its statistics recounted. */
async function runWithCosts(stores: Stores, org: string, id: string, costs: number[]): Promise<Run> {
  const scoped = scopedStores(stores, org);
  await scoped.runs.createRun(sampleRun(id, { status: 'running', total_cases: costs.length }));
  await scoped.scorecards.upsertScorecards(costs.map((cost, i) => ({ ...sampleScorecard(id, `case-${i}`), estimated_cost_usd: cost })));
  await scoped.runStats.recomputeRunStats(id, costs.length);
  return (await stores.runs.getRun(id))!;
}

async function budgetAlertsOf(stores: Stores, org: string): Promise<Array<[string, string, string | undefined]>> {
  const page = await stores.alerts.listAlerts({ metric: 'budget_spent' }, { limit: 100 });
  return page.items
    .filter((a) => (a.organization ?? 'default') === org)
    .map((a) => [a.id, a.severity, a.organization] as [string, string, string | undefined])
    .sort();
}

/** A judge that counts its calls and always passes. */
function countingJudge(): Judge & { calls: number } {
  const judge = {
    name: 'counting',
    method: 'direct' as const,
    calls: 0,
    async judge() {
      judge.calls++;
      return { score: 1, reasoning: 'fine', model: 'm', input_tokens: 10, output_tokens: 5, cost_usd: 0.01 };
    },
  };
  return judge as unknown as Judge & { calls: number };
}

describe('organization budgets', () => {
  it("sums an organization's month-to-date spend from its runs' statistics, and only its own", async () => {
    const { stores, clock, ledger } = setup();
    await stores.organizations.create({ id: 'acme', name: 'Acme', created_at: clock.at.toISOString(), budget: { monthly_usd: 1 } });
    await runWithCosts(stores, 'acme', 'acme-1', [0.2, 0.3]);
    await runWithCosts(stores, 'default', 'default-1', [5]);
    await runWithCosts(stores, 'other', 'other-1', [7]);
    const status = await ledger.status('acme');
    expect(status).toEqual({
      organization: 'acme',
      month: '2026-03',
      spent_usd: expect.closeTo(0.5, 9),
      budget_usd: 1,
      share: expect.closeTo(0.5, 9),
      exhausted: false,
    });
    expect((await ledger.status('other')).budget_usd).toBeNull();
    // April: the March runs count in March
    clock.at = new Date('2026-04-02T00:00:00.000Z');
    expect((await ledger.status('acme')).spent_usd).toBe(0);
  });

  it('raises the 80% (warning) and 100% (critical) alerts once per month each, in the organization', async () => {
    const { stores, clock, ledger } = setup();
    await stores.organizations.create({ id: 'acme', name: 'Acme', created_at: clock.at.toISOString(), budget: { monthly_usd: 1 } });
    const run = await runWithCosts(stores, 'acme', 'acme-1', [0.5]);
    await ledger.status('acme', run);
    expect(await budgetAlertsOf(stores, 'acme')).toEqual([]);
    await runWithCosts(stores, 'acme', 'acme-2', [0.35]);
    await ledger.status('acme', run);
    await ledger.status('acme', run);
    expect(await budgetAlertsOf(stores, 'acme')).toEqual([[budgetAlertId('acme', '2026-03', 0.8), 'medium', 'acme']]);
    await runWithCosts(stores, 'acme', 'acme-3', [0.2]);
    const spent = await ledger.status('acme', run);
    expect([spent.exhausted, spent.share! >= 1]).toEqual([true, true]);
    await ledger.status('acme', run);
    expect(await budgetAlertsOf(stores, 'acme')).toEqual([
      ['budget:acme:2026-03:100', 'critical', 'acme'],
      ['budget:acme:2026-03:80', 'medium', 'acme'],
    ]);
    // another organization's lists never show them
    expect((await scopedStores(stores, 'default').alerts.listAlerts({}, {})).items).toEqual([]);
    expect((await scopedStores(stores, 'acme').alerts.listAlerts({}, {})).total).toBe(2);
    // next month: fresh thresholds (nothing spent yet, so nothing fires)
    clock.at = new Date('2026-04-01T00:00:01.000Z');
    expect((await ledger.status('acme', run)).exhausted).toBe(false);
    expect(await budgetAlertsOf(stores, 'acme')).toHaveLength(2);
  });

  it('a spent budget stops stage 4 calling the judge: budget_exhausted, not scored, never a failure; the run ends degraded', async () => {
    const { stores, clock, ledger } = setup();
    await stores.organizations.create({ id: 'acme', name: 'Acme', created_at: clock.at.toISOString(), budget: { monthly_usd: 1 } });
    const run = await runWithCosts(stores, 'acme', 'acme-1', [0.6]);
    const inner = countingJudge();
    const judge = budgetedJudge(inner, run, ledger);
    const testCase: TestCase = { ...sampleTestCase('c1'), expected_nl_response: 'It is sunny.' };
    const before = await runSemanticsStage(testCase, 'It is sunny.', { judge, passThreshold: 0.5 });
    expect([before.result.status, inner.calls]).toEqual(['passed', 1]);

    await runWithCosts(stores, 'acme', 'acme-2', [0.5]);
    const after = await runSemanticsStage(testCase, 'It is sunny.', { judge, passThreshold: 0.5 });
    expect([after.result.status, after.result.error_code, after.result.score, inner.calls]).toEqual(['error', 'budget_exhausted', null, 1]);
    expect(after.result.message).toMatch(/^Stage 4 skipped: the monthly budget of organization "acme" is spent/);
    const kind = outcomeKindOf({
      overall_passed: false,
      error_code: 'budget_exhausted',
      failing_stage: 'semantics',
      stages: { semantics: after.result },
    });
    expect(kind).toBe('not_scored');
    // one budget-skipped case degrades a run whatever the not-scored share allows
    expect(finishedStatus({ completed: 100, not_scored: 1, error_codes: { budget_exhausted: 1 } }, 0.5)).toBe('degraded');
    expect(finishedStatus({ completed: 100, not_scored: 1, error_codes: { judge_failed: 1 } }, 0.5)).toBe('completed');

    // an organization without a budget is never stopped
    const free = await runWithCosts(stores, 'other', 'other-1', [100]);
    const otherInner = countingJudge();
    await budgetedJudge(otherInner, free, ledger).judge({ question: 'q', expected_facts: [], actual_answer: 'a' });
    expect(otherInner.calls).toBe(1);
    await expect(judge.judge({ question: 'q', expected_facts: [], actual_answer: 'a' })).rejects.toBeInstanceOf(JudgeError);
  });
});
