import { describe, expect, it } from 'vitest';
import type { ScorecardFilter } from '../../ports/scorecardStore.js';
import { scorecardQuery, type ScorecardQuery } from './scorecardQuery.js';

describe('scorecardQuery', () => {
  it.each<[string, ScorecardFilter, ScorecardQuery]>([
    ['run only', {}, { from: 'st_scorecards s', card: 's.rowid', where: 's.run_id = ?', params: ['r'] }],
    [
      'outcome columns',
      { passed: false, failing_stage: 'logic', error_code: 'missing_call', category: 'travel' },
      {
        from: 'st_scorecards s',
        card: 's.rowid',
        where: 's.run_id = ? AND s.overall_passed = ? AND s.failing_stage = ? AND s.error_code = ? AND s.category = ?',
        params: ['r', 0, 'logic', 'missing_call', 'travel'],
      },
    ],
    [
      'a tag reads the tag rows',
      { tag: 'smoke', passed: true },
      {
        from: 'st_scorecard_tags s',
        card: 's.card',
        where: 's.run_id = ? AND s.tag = ? AND s.overall_passed = ?',
        params: ['r', 'smoke', 1],
      },
    ],
  ])('%s', (_label, filter, query) => {
    expect(scorecardQuery('r', filter)).toEqual(query);
  });
});
