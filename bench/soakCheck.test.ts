import { describe, expect, it } from 'vitest';
import type { Scorecard } from '../lib/domain/index.js';
import { sampleScorecard } from '../lib/ports/contracts/fixtures.js';
import { checkSoakRun } from './soakCheck.js';

const ids = ['c1', 'c2', 'c3', 'c4'];
const reference = new Map(ids.map((id) => [id, sampleScorecard('ref', id, { passed: id !== 'c4' })]));
const cardsOf = (runId: string): Scorecard[] => ids.map((id) => sampleScorecard(runId, id, { passed: id !== 'c4' }));
const stats = (cards: readonly Scorecard[]) => ({
  completed: cards.length,
  passed: cards.filter((c) => c.overall_passed).length,
  not_scored: cards.filter((c) => c.outcome === 'not_scored').length,
  by_category: { weather: { completed: cards.filter((c) => c.outcome !== 'not_scored').length } },
});
const none = (): boolean => false;

describe('the soak benchmark verdict on a run', () => {
  it('all zero for a finished run equal to the fault-free one', () => {
    const cards = cardsOf('r');
    const check = checkSoakRun({ status: 'completed', stats: stats(cards), cards }, ids, reference, none);
    expect([check.lost, check.duplicated, check.stuck, check.differing, check.healthy]).toEqual([0, 0, 0, [], 4]);
    // not-scored cases count in completed and not_scored, not in the category breakdown
    const withOutage = cards.map((c) => (c.test_case_id === 'c2' ? { ...c, outcome: 'not_scored' as const } : c));
    expect(stats(withOutage).by_category.weather.completed).toBe(3);
    const outage = checkSoakRun({ status: 'degraded', stats: stats(withOutage), cards: withOutage }, ids, reference, none);
    expect([outage.lost, outage.duplicated]).toEqual([0, 0]);
  });

  it('counts a case without a scorecard as lost, and statistics missing a case', () => {
    const cards = cardsOf('r').filter((c) => c.test_case_id !== 'c2');
    expect(checkSoakRun({ status: 'completed', stats: stats(cards), cards }, ids, reference, none).lost).toBe(1);
    const all = cardsOf('r');
    expect(checkSoakRun({ status: 'completed', stats: stats(cards), cards: all }, ids, reference, none).lost).toBe(1);
  });

  it('counts a second scorecard of a case/trial and statistics that count a case twice as duplicated', () => {
    const cards = [...cardsOf('r'), sampleScorecard('r', 'c1')];
    expect(checkSoakRun({ status: 'completed', stats: stats(cardsOf('r')), cards }, ids, reference, none).duplicated).toBe(1);
    const once = cardsOf('r');
    const twice = { ...stats(once), completed: 5, by_category: { weather: { completed: 5 } } };
    expect(checkSoakRun({ status: 'completed', stats: twice, cards: once }, ids, reference, none).duplicated).toBe(1);
    // a second trial of a case is its own key, not a duplicate
    const trial2 = [...once, { ...sampleScorecard('r', 'c1'), trial: 2 }];
    expect(checkSoakRun({ status: 'completed', stats: stats(once), cards: trial2 }, ids, reference, none).duplicated).toBe(0);
  });

  it('counts an open run as stuck', () => {
    const cards = cardsOf('r');
    expect(checkSoakRun({ status: 'running', stats: stats(cards), cards }, ids, reference, none).stuck).toBe(1);
    expect(checkSoakRun({ status: 'stalled', stats: stats(cards), cards }, ids, reference, none).stuck).toBe(1);
    expect(checkSoakRun({ status: 'degraded', stats: stats(cards), cards }, ids, reference, none).stuck).toBe(0);
  });

  it('compares only healthy cases: a healthy case scored differently counts, a case whose target call failed does not', () => {
    const cards = cardsOf('r').map((c) =>
      c.test_case_id === 'c1' || c.test_case_id === 'c3'
        ? sampleScorecard('r', c.test_case_id, { passed: false, error_code: 'target_error' })
        : c,
    );
    const check = checkSoakRun({ status: 'completed', stats: stats(cards), cards }, ids, reference, (id) => id === 'c3');
    expect([check.differing, check.healthy]).toEqual([['c1'], 3]);
    // a different stage score alone is a different verdict
    const scored = cardsOf('r').map((c) =>
      c.test_case_id === 'c2' ? { ...c, stages: { ...c.stages, logic: { ...c.stages.logic, score: 0.5 } } } : c,
    );
    expect(checkSoakRun({ status: 'completed', stats: stats(scored), cards: scored }, ids, reference, none).differing).toEqual(['c2']);
  });
});
