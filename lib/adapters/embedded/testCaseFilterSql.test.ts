import { describe, expect, it } from 'vitest';
import type { TestCaseFilter } from '../../domain/index.js';
import { matchingRidsSql, testCaseQuery } from './testCaseFilterSql.js';

describe('testCaseQuery', () => {
  it.each<[string, TestCaseFilter, boolean, ReturnType<typeof testCaseQuery>]>([
    ['no filter', {}, false, { arms: [{ from: 'st_test_cases x', rid: 'x.rid', where: '1', params: [] }] }],
    [
      'columns; ordered pages keep the complexity index out',
      { category: 'travel', complexity_min: 2, complexity_max: 4 },
      true,
      {
        arms: [
          {
            from: 'st_test_cases x',
            rid: 'x.rid',
            where: 'x.category = ? AND +x.complexity >= ? AND +x.complexity <= ?',
            params: ['travel', 2, 4],
          },
        ],
      },
    ],
    [
      'q alone reads the text index',
      { q: 'berl' },
      false,
      { arms: [{ from: 'st_test_case_fts', rid: 'st_test_case_fts.rowid', where: 'st_test_case_fts MATCH ?', params: ['"berl"*'] }] },
    ],
    [
      'q with a column is a membership test',
      { q: 'to', api_version: 'v1' },
      false,
      {
        arms: [
          {
            from: 'st_test_cases x',
            rid: 'x.rid',
            where: 'x.api_version = ? AND x.rid IN (SELECT rowid FROM st_test_case_fts WHERE st_test_case_fts MATCH ?)',
            params: ['v1', '"to"'],
          },
        ],
      },
    ],
    ['q without words matches nothing', { q: '**' }, false, { arms: [{ from: 'st_test_cases x', rid: 'x.rid', where: '0', params: [] }] }],
    [
      'tags all: one arm, the other tags checked by key',
      { tags: ['a', 'b', 'a'], tags_mode: 'all', complexity_max: 3 },
      true,
      {
        arms: [
          {
            from: 'st_test_case_tags x',
            rid: 'x.rid',
            where: 'x.tag = ? AND EXISTS (SELECT 1 FROM st_test_case_tags t WHERE t.tag = ? AND t.rid = x.rid) AND x.complexity <= ?',
            params: ['a', 'b', 3],
          },
        ],
      },
    ],
    [
      'tags any: one arm per tag',
      { tags: ['a', 'b'], category: 'c' },
      false,
      {
        arms: [
          { from: 'st_test_case_tags x', rid: 'x.rid', where: 'x.tag = ? AND x.category = ?', params: ['a', 'c'] },
          { from: 'st_test_case_tags x', rid: 'x.rid', where: 'x.tag = ? AND x.category = ?', params: ['b', 'c'] },
        ],
      },
    ],
  ])('%s', (_label, filter, ordered, query) => {
    expect(testCaseQuery(filter, { ordered })).toEqual(query);
  });

  it('builds the same SQL text for other values (cacheable statements)', () => {
    const sql = (filter: TestCaseFilter) => matchingRidsSql(testCaseQuery(filter)).sql;
    expect(sql({ tags: ['x', 'y'], q: 'one', category: 'a' })).toBe(sql({ tags: ['p', 'q'], q: 'two words', category: 'b' }));
  });

  it('unions the arms with the keyset bound in each', () => {
    expect(matchingRidsSql(testCaseQuery({ tags: ['a', 'b'] }), 7)).toEqual({
      sql: 'SELECT x.rid AS rid FROM st_test_case_tags x WHERE x.tag = ? AND x.rid > ? UNION SELECT x.rid AS rid FROM st_test_case_tags x WHERE x.tag = ? AND x.rid > ?',
      params: ['a', 7, 'b', 7],
    });
  });
});
