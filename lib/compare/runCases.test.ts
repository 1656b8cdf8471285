import { describe, expect, it } from 'vitest';
import { retailCards } from './retail.test-helpers.js';
import { loadRunCases, RunCases, STAGE_CODE } from './runCases.js';
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
        cases.passed[i] === 1,
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
      expect(cases.stage(i, 1)).toBe(STAGE_CODE[card.stages.logic.status]);
    });
    expect(cases.tagsOf(40)).toEqual(cases.tagsOf(1));
    expect(cases.categories.length).toBeLessThanOrEqual(8);
    expect(cases.inputTokens).toBe([...cards, shuffledTags].reduce((s, c) => s + c.input_tokens, 0));
  });

  it('trials pair trial by trial, the same from scorecards (trial field) as from counted outcomes (trial keys)', async () => {
    const [card] = (await retailCards('model-a')).slice(0, 1);
    const id = card!.test_case_id;
    const fromScorecards = new RunCases(3);
    [card!, { ...card!, trial: 2 }, { ...card!, trial: 3 }].forEach((c) => fromScorecards.add(c));
    expect(fromScorecards.ids).toEqual([id, `${id}#trial-2`, `${id}#trial-3`]);
    const fromOutcomes = await loadRunCases(stream([{ ...card!, test_case_id: `${id}#trial-3` }, card!]), {
      capacity: 2,
      pairIndex: fromScorecards.indexById(),
    });
    expect(Array.from(fromOutcomes.pair.subarray(0, 2))).toEqual([2, 0]);
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
