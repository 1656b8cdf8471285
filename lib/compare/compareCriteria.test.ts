import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComparisonSchema, resolveEvaluationConfig, type Comparison, type Scorecard } from '../domain/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { sampleScorecard } from '../ports/contracts/fixtures.js';
import { compareRuns } from './compareRuns.js';
import { renderComparison } from '../cli/commands/compareTables.js';
import { comparisonMarkdown } from '../reports/markdownComparison.js';
import { comparisonHtml } from '../reports/htmlSections.js';
import { openStores, storeRun, type TestStores } from './retail.test-helpers.js';

/**
 * Per-criterion semantic scores (issue 13): two runs of 6 cases judged on two rubric criteria (1-5).
 *   correctness  A 5 4 5 4 5 4 (mean 4.5)  B 3 3 4 2 3 3 (mean 3)     differences -2 -1 -1 -2 -2 -1
 *   clarity      A 4 4 4 4 4 4 (mean 4)    B 4 4 4 4 4 5 (mean 4.1667) differences 0 0 0 0 0 +1
 * scipy.stats.ttest_rel: correctness t = -6.708204 on 5 df, p = 0.001114438, 95% CI [-2.074800, -0.925200];
 * clarity t = 1, p = 0.3632175. Holm over the two: 0.002228875 and 0.3632175.
 */
const SCORES = {
  'crit-a': { correctness: [5, 4, 5, 4, 5, 4], clarity: [4, 4, 4, 4, 4, 4] },
  'crit-b': { correctness: [3, 3, 4, 2, 3, 3], clarity: [4, 4, 4, 4, 4, 5] },
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

const temps = new TempDatabases();
let stores: TestStores;
const clock = { now: () => new Date('2026-11-26T04:40:00.000Z') };
const config = resolveEvaluationConfig({ semantics: { enabled: true, judge: 'openai', scoring: 'criteria' } });

beforeAll(async () => {
  stores = openStores(temps);
  for (const id of ['crit-a', 'crit-b'] as const) await storeRun(stores, id, cards(id), { total_cases: 6, config });
  // the same runs with their statistics folded: the cases come from counted outcomes, the criteria from a scorecard pass
  for (const id of ['crit-a', 'crit-b'] as const) {
    await storeRun(stores, `${id}-folded`, cards(id), { total_cases: 6, config });
    await stores.runStats.recomputeRunStats(`${id}-folded`, 6);
  }
}, 60_000);

afterAll(() => temps.closeAll());

function expectCriteria(comparison: Comparison): void {
  expect(ComparisonSchema.parse(comparison)).toBeTruthy();
  expect(comparison.runs.map((r) => r.criteria)).toEqual([
    [
      { name: 'clarity', n: 6, mean: 4 },
      { name: 'correctness', n: 6, mean: 4.5 },
    ],
    [
      { name: 'clarity', n: 6, mean: expect.closeTo(25 / 6, 12) },
      { name: 'correctness', n: 6, mean: 3 },
    ],
  ]);
  const [clarity, correctness] = comparison.pairs[0]!.criteria;
  expect(correctness).toMatchObject({
    name: 'correctness',
    paired_cases: 6,
    baseline_mean: 4.5,
    candidate_mean: 3,
    test: 'paired t',
    significant: true,
  });
  expect(correctness!.difference).toBeCloseTo(-1.5, 12);
  expect(correctness!.p_value).toBeCloseTo(0.001114438, 8);
  expect(correctness!.p_value_adjusted).toBeCloseTo(0.002228875, 8);
  expect(correctness!.lower).toBeCloseTo(-2.0748, 4);
  expect(correctness!.upper).toBeCloseTo(-0.9252, 4);
  expect(clarity).toMatchObject({ name: 'clarity', paired_cases: 6, significant: false });
  expect(clarity!.p_value).toBeCloseTo(0.3632175, 6);
  expect(clarity!.p_value_adjusted).toBeCloseTo(0.3632175, 6);
}

describe('compareRuns per rubric criterion', () => {
  it('from scorecards: the mean per criterion per run and the paired change with interval and Holm-adjusted significance', async () => {
    expectCriteria(await compareRuns(['crit-a', 'crit-b'], { stores, clock }));
  });

  it('from the statistics’ counted outcomes: the same criteria, read by a second pass over the scorecards', async () => {
    const folded = await compareRuns(['crit-a-folded', 'crit-b-folded'], { stores, clock });
    expectCriteria(folded);
  });

  it('runs without criterion scores have none (and the pair lists none)', async () => {
    const a = sampleScorecard('plain-a', 'case-0');
    await storeRun(stores, 'plain-a', [a], { total_cases: 1 });
    await storeRun(stores, 'plain-b', [{ ...a, run_id: 'plain-b' }], { total_cases: 1 });
    const comparison = await compareRuns(['plain-a', 'plain-b'], { stores, clock });
    expect([comparison.runs[0]!.criteria, comparison.pairs[0]!.criteria]).toEqual([[], []]);
  });
});

describe('per-criterion scores in `evalp compare` and the report', () => {
  it('prints each criterion: means, paired change with interval, Holm-adjusted p and significance', async () => {
    const comparison = await compareRuns(['crit-a', 'crit-b'], { stores, clock });
    const text = renderComparison(comparison);
    expect(text).toContain(
      'criterion correctness 4.50 → 3.00: -1.50 [-2.07, -0.93] (paired t, 6 cases), p = 0.0022 Holm-adjusted over 2, significant',
    );
    expect(text).toContain('criterion clarity 4.00 → 4.17: +0.17 [-0.26, +0.60] (paired t, 6 cases), p = 0.36 Holm-adjusted over 2');
    const base_run = (await stores.runs.getRun('crit-a'))!;
    const section = { base_run, comparison, newly_failing: { total: 0, cases: [] }, newly_passing: { total: 0, cases: [] } };
    const markdown = comparisonMarkdown(section, { failures: 5, flipped: 5, categories: 5, diffLines: 5, questionChars: 80 }).join('\n');
    expect(markdown).toMatch(
      /\| criterion correctness \(1-5\) \| 4\.50 \| 3\.00 \| −1\.50 \| −2\.07 … −0\.93 \| 0\.002\d* \(paired t, Holm over 2\) ⚠️ \|/,
    );
    expect(markdown).toMatch(/\| criterion clarity \(1-5\) \| 4\.00 \| 4\.17 \| \+0\.17 \|/);
    const html = comparisonHtml(section);
    expect(html).toContain('<td>criterion correctness (1-5)</td><td class="n">4.50</td><td class="n">3.00</td><td class="n">−1.50</td>');
  });
});
