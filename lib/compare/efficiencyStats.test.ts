import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseOutcomeOf, RunStatsAccumulator, type Scorecard } from '../domain/index.js';
import { sampleScorecard } from '../ports/contracts/fixtures.js';
import { efficiencyStatsOf } from './efficiencyStats.js';

/** A scorecard with an efficiency (or none), scored or lost to an infrastructure fault. */
const cardArbitrary = fc
  .record({
    made: fc.nat(8),
    needed: fc.nat(8),
    redundant: fc.nat(3),
    turns: fc.nat(6),
    tokens: fc.nat(50_000),
    score: fc.oneof(
      fc.constantFrom(0, 0.5, 1),
      fc.double({ min: 0, max: 1, noNaN: true }).map((x) => Math.round(x * 1e6) / 1e6),
    ),
    has: fc.boolean(),
    notScored: fc.boolean(),
  })
  .map((f): Omit<Scorecard, 'test_case_id'> => {
    const base = sampleScorecard('run-1', 'c');
    const { test_case_id: _, ...rest } = base;
    return {
      ...rest,
      ...(f.notScored ? { error_code: 'target_timeout', failing_stage: 'syntax' } : {}),
      ...(f.has
        ? {
            efficiency: {
              calls_made: f.made,
              calls_needed: f.needed,
              redundant_calls: f.redundant,
              model_turns: f.turns,
              conversation_turns: 1,
              tokens: f.tokens,
              score: f.score,
            },
          }
        : {}),
    };
  });

describe('efficiency statistics', () => {
  it('the live run statistics (folded outcomes) equal the statistics read from the scorecards (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cardArbitrary, { maxLength: 40 }), async (partial) => {
        const cards = partial.map((c, i): Scorecard => ({ ...c, test_case_id: `case-${i}` }) as Scorecard);
        const fromCards = await efficiencyStatsOf(cards);
        const live = RunStatsAccumulator.empty();
        for (const card of cards) live.add(caseOutcomeOf(card));
        const folded = live.toRunStats('run-1', cards.length, '2026-01-01T00:00:00Z').efficiency;
        expect(folded).toEqual(fromCards);
      }),
      { numRuns: 200 },
    );
  });
});
