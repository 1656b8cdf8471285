import { afterEach, describe, expect, it } from 'vitest';
import { resolveEvaluationConfig, type Scorecard } from '../domain/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { sampleClient, sampleScorecard } from '../ports/contracts/fixtures.js';
import { checkRunRegressions } from './checkRunRegressions.js';
import { CRITERION_TEST } from './evidenceFrom.js';
import { alertFacts } from './notify/alertFacts.js';
import { acceptingQueue, RETAIL_CLOCK as clock, storeRun, tempStores } from './retailRuns.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

/**
 * Per-criterion regression alerts (issue 13). Six cases, every one passing in both runs (no accuracy change):
 *   correctness  baseline 5 4 5 4 5 4 (4.5)  current 3 3 4 2 3 3 (3.0)     paired t p = 0.001114438
 *   clarity      baseline 4 4 4 4 4 4 (4.0)  current 4 4 4 4 4 5 (4.1667)  p = 0.3632175 (an improvement)
 * Holm over the two criteria: correctness 0.002228875 (scipy.stats.ttest_rel, then Holm by hand).
 */
const SCORES = {
  base: { correctness: [5, 4, 5, 4, 5, 4], clarity: [4, 4, 4, 4, 4, 4] },
  cur: { correctness: [3, 3, 4, 2, 3, 3], clarity: [4, 4, 4, 4, 4, 5] },
} as const;

function cards(runId: keyof typeof SCORES): Scorecard[] {
  return SCORES[runId].correctness.map((correctness, i) => {
    const card = sampleScorecard(runId, `case-${i}`);
    const criteria = [
      { name: 'correctness', score: correctness },
      { name: 'clarity', score: SCORES[runId].clarity[i]! },
    ];
    return {
      ...card,
      stages: {
        ...card.stages,
        semantics: {
          stage: 'semantics',
          status: 'passed',
          passed: true,
          score: 0.8,
          duration_ms: 1,
          details: { model: 'judge', criteria },
        },
      },
    };
  });
}

const config = resolveEvaluationConfig({ semantics: { enabled: true, judge: 'openai', scoring: 'criteria' } });

async function check(thresholds?: { criterion_drop_warning: number; criterion_drop_critical: number }) {
  const stores = tempStores(temps);
  if (thresholds) await stores.clients.upsert({ ...sampleClient('acme'), thresholds: { ...OTHER_THRESHOLDS, ...thresholds } });
  await storeRun(stores, 'base', cards('base'), { config, client_id: thresholds ? 'acme' : null });
  const run = await storeRun(stores, 'cur', cards('cur'), {
    config,
    baseline_run_id: 'base',
    status: 'running',
    client_id: thresholds ? 'acme' : null,
  });
  return checkRunRegressions(run, { live: false }, { stores, queue: acceptingQueue, clock });
}

const OTHER_THRESHOLDS = {
  accuracy_drop_warning_pts: 2,
  accuracy_drop_critical_pts: 5,
  p95_latency_ratio_warning: 1.5,
  p95_latency_ratio_critical: 2,
  cost_per_case_ratio_warning: 1.2,
  cost_per_case_ratio_critical: 1.5,
  alpha: 0.05,
};

describe('regression alerts per rubric criterion', () => {
  it('a significant drop of one criterion raises its own critical alert; the other criterion and accuracy raise none', async () => {
    const result = await check();
    expect(result.evidence?.criteria?.map((c) => [c.criterion, c.previous, c.paired_cases])).toEqual([
      ['clarity', 4, 6],
      ['correctness', 4.5, 6],
    ]);
    expect(result.alerts).toHaveLength(1);
    const [alert] = result.alerts;
    expect(alert).toMatchObject({
      id: 'cur:criterion_score:correctness',
      metric: 'criterion_score',
      criterion: 'correctness',
      severity: 'critical',
      previous: 4.5,
      current: 3,
      change: -1.5,
      change_unit: 'score_points',
      threshold: 1,
      test: CRITERION_TEST,
      paired_cases: 6,
    });
    expect(alert!.p_value).toBeCloseTo(0.002228875, 8);
    expect(alert!.message).toMatch(/^criterion correctness 4\.50 \/ 5 → 3\.00 \/ 5 \(-1\.50, /);
    expect(alertFacts(alert!).title).toBe('Critical regression: criterion score: correctness of simulated-model-a');
  });

  it('the thresholds are the client’s: a 2-point critical threshold leaves the same drop medium', async () => {
    const result = await check({ criterion_drop_warning: 1, criterion_drop_critical: 2 });
    expect(result.alerts.map((a) => [a.id, a.severity, a.threshold])).toEqual([['cur:criterion_score:correctness', 'medium', 1]]);
  });
});
