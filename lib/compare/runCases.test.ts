import { describe, expect, it } from 'vitest';
import { retailCards } from './retail.test-helpers.js';
import { loadRunCases, RunCases } from './runCases.js';
import { formatP, formatPoints } from './significanceText.js';

async function* stream<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}

describe('RunCases', () => {
  it('keeps the columns of every card, grows past its capacity and interns categories and tag sets', async () => {
    const cards = (await retailCards('model-a')).slice(0, 40);
    const shuffledTags = { ...cards[1]!, test_case_id: 'extra', tags: [...cards[1]!.tags].reverse().concat(cards[1]!.tags) };
    const cases = await loadRunCases(stream([...cards, shuffledTags]), { capacity: 3 });
    expect(cases.size).toBe(41);
    cards.forEach((card, i) => {
      expect([
        cases.ids[i],
        cases.passFraction(i) === 1,
        cases.score[i],
        cases.latency[i],
        cases.cost[i],
        cases.complexity[i],
        cases.categoryOf(i),
      ]).toEqual([
        card.test_case_id,
        card.overall_passed,
        card.overall_score,
        card.latency_ms,
        card.estimated_cost_usd,
        card.complexity_level,
        card.category,
      ]);
      expect(cases.tagsOf(i)).toEqual([...new Set(card.tags)].sort());
      const logic = card.stages.logic.status;
      expect(cases.stageFraction(i, 1)).toBe(logic === 'skipped' ? -1 : logic === 'passed' ? 1 : 0);
    });
    expect(cases.tagsOf(40)).toEqual(cases.tagsOf(1));
    expect(cases.categories.length).toBeLessThanOrEqual(8);
    expect(cases.inputTokens).toBe([...cards, shuffledTags].reduce((s, c) => s + c.input_tokens, 0));
  });

  it('folds the trials of a case into one row (per-case means), the same from scorecards (trial field) as from counted outcomes (trial keys)', async () => {
    const [card] = (await retailCards('model-a')).slice(0, 1);
    const id = card!.test_case_id;
    const failed = { ...card!, overall_passed: false, overall_score: 0.25, latency_ms: 300, estimated_cost_usd: 0.003 };
    const trials = [
      { ...card!, overall_passed: true, overall_score: 1, latency_ms: 100, estimated_cost_usd: 0.001 },
      { ...failed, trial: 2 },
      { ...card!, overall_passed: true, overall_score: 1, latency_ms: 200, estimated_cost_usd: 0.002, trial: 3 },
    ];
    const fromScorecards = new RunCases(3);
    trials.forEach((c) => fromScorecards.add(c));
    expect(fromScorecards.size).toBe(1);
    expect(fromScorecards.ids).toEqual([id]);
    expect([fromScorecards.trials[0], fromScorecards.passes[0], fromScorecards.passFraction(0)]).toEqual([3, 2, 2 / 3]);
    expect(fromScorecards.meanScore(0)).toBeCloseTo(2.25 / 3, 12);
    expect(fromScorecards.meanLatency(0)).toBeCloseTo(200, 9);
    expect(fromScorecards.meanCost(0)).toBeCloseTo(0.002, 12);
    expect(fromScorecards.latencyHistogram.count()).toBe(3);
    const fromOutcomes = await loadRunCases(
      stream([
        { ...trials[2]!, trial: undefined, test_case_id: `${id}#trial-3` },
        { ...failed, test_case_id: `${id}#trial-2` },
        trials[0]!,
      ]),
      { capacity: 2, pairIndex: fromScorecards.indexById() },
    );
    expect(fromOutcomes.size).toBe(1);
    expect([fromOutcomes.ids[0], fromOutcomes.pair[0], fromOutcomes.passFraction(0)]).toEqual([id, 0, 2 / 3]);
  });

  it('pairs with another run through its id index (-1 when absent)', async () => {
    const cards = (await retailCards('model-b')).slice(0, 5);
    const reference = new RunCases(5);
    cards.slice(1).forEach((c) => reference.add(c));
    const paired = await loadRunCases(stream(cards), { capacity: 5, pairIndex: reference.indexById() });
    expect(Array.from(paired.pair.subarray(0, 5))).toEqual([-1, 0, 1, 2, 3]);
  });
});

describe('verdict formatting', () => {
  it.each([
    [0.0004, 'p < 0.001'],
    [0.00431, 'p = 0.0043'],
    [0.0347, 'p = 0.035'],
    [0.123, 'p = 0.12'],
    [0.999, 'p = 1'],
  ])('formatP(%f) = %s', (p, text) => expect(formatP(p)).toBe(text));

  it.each([
    [-0.298, '-29.8'],
    [0.05, '+5.0'],
    [0, '0.0'],
  ])('formatPoints(%f) = %s', (d, text) => expect(formatPoints(d)).toBe(text));
});
