import { describe, expect, it } from 'vitest';
import { resolveEvaluationConfig, ScorecardSchema } from '../../domain/index.js';
import { syntheticCases, syntheticCatalog } from '../../../bench/fixtures/syntheticGoldSet.js';
import { evaluateCase } from './index.js';

/**
 * The scorecard is built field by field on the hot path (finishSingleCase, no object spreads), so the compiler no
 * longer sees a missing required field: every card of a varied synthetic set must parse as a Scorecard unchanged.
 */
describe('scorecards built on the hot path', () => {
  it.each([
    ['the ci profile', { profile: 'ci' }],
    ['BFCL compatibility', { profile: 'ci', compat: 'bfcl' }],
  ] as const)('%s: every card is a whole, valid Scorecard', async (_label, input) => {
    const catalog = syntheticCatalog();
    const config = resolveEvaluationConfig(input);
    let outcomes = new Set<string>();
    for (const { testCase, outputText } of syntheticCases(400, 11, catalog)) {
      const card = await evaluateCase({ runId: 'run-1', testCase, output: outputText }, config, { catalogFor: () => catalog });
      expect(ScorecardSchema.parse(card)).toEqual(card);
      outcomes = outcomes.add(`${card.overall_passed}:${card.failing_stage ?? '-'}`);
    }
    expect(outcomes.size).toBeGreaterThan(2); // passed, and failed at more than one stage
  });
});
