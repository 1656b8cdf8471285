import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CASE_QUERY_FIELDS, CaseQueryError, matchesCaseQuery, parseCaseQuery, printCaseQuery, type CaseQuery } from './caseQuery.js';
import { TestCaseSchema, type TestCase } from './testCase.js';

const t = (field: string, op: string, value: string | number) => ({ type: 'term', field, op, value });

describe('parseCaseQuery', () => {
  it.each<[string, unknown]>([
    ['complexity_level:5', t('complexity_level', ':', 5)],
    ['tags:search', t('tags', ':', 'search')],
    ['complexity_level:5 AND tags:search', { type: 'and', items: [t('complexity_level', ':', 5), t('tags', ':', 'search')] }],
    ['complexity_level>=4', t('complexity_level', '>=', 4)],
    ['complexity < 3', t('complexity_level', '<', 3)],
    [
      'tag:a OR tag:b AND tool:x',
      { type: 'or', items: [t('tags', ':', 'a'), { type: 'and', items: [t('tags', ':', 'b'), t('tool', ':', 'x')] }] },
    ],
    [
      '(tag:a OR tag:b) AND tool:x',
      { type: 'and', items: [{ type: 'or', items: [t('tags', ':', 'a'), t('tags', ':', 'b')] }, t('tool', ':', 'x')] },
    ],
    ['NOT NOT source:bfcl*', { type: 'not', item: { type: 'not', item: t('source', ':', 'bfcl*') } }],
    ['category:"order status"', t('category', ':', 'order status')],
    ['text:"say \\"hi\\""', t('text', ':', 'say "hi"')],
    ['category:"AND"', t('category', ':', 'AND')],
    ['tool!=orders.list', t('tool', '!=', 'orders.list')],
  ])('%s', (text, expected) => {
    expect(parseCaseQuery(text)).toEqual(expected);
  });

  it.each<[string, string, number]>([
    ['', 'expected a condition such as tags:search', 0],
    ['tags:', 'expected a value after "tags:"', 5],
    ['colour:red', 'unknown field "colour"', 0],
    ['tags search', 'expected an operator', 5],
    ['tags:a AND', 'expected a condition', 10],
    ['(tags:a OR tags:b', 'expected ")"', 17],
    ['tags:a)', 'unbalanced ")"', 6],
    ['tags:a tags:b', 'expected AND, OR or the end of the query', 7],
    ['complexity_level>=high', 'complexity_level takes a number, not "high"', 18],
    ['category>x', 'category takes :, = or !=', 8],
    ['category:"open', 'unterminated quoted value', 9],
    ['tags:a & tags:b', 'unexpected character "&"', 7],
    ['tags:OR', 'quote "OR" to mean the word', 5],
  ])('%j fails: %s at %i', (text, reason, position) => {
    let error: unknown;
    try {
      parseCaseQuery(text);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CaseQueryError);
    expect((error as CaseQueryError).reason).toContain(reason);
    expect((error as CaseQueryError).position).toBe(position);
    expect((error as CaseQueryError).message).toContain(`at position ${position + 1}\n  ${text}\n  ${' '.repeat(position)}^`);
  });
});

const textFields = CASE_QUERY_FIELDS.filter((f) => f !== 'complexity_level');
const term: fc.Arbitrary<CaseQuery> = fc.oneof(
  fc.record({
    type: fc.constant('term' as const),
    field: fc.constant('complexity_level' as const),
    op: fc.constantFrom(':', '=', '!=', '>=', '<=', '>', '<' as const),
    value: fc.integer({ min: -5, max: 10 }),
  }),
  fc.record({
    type: fc.constant('term' as const),
    field: fc.constantFrom(...textFields),
    op: fc.constantFrom(':', '=', '!=' as const),
    value: fc.oneof(fc.string(), fc.constantFrom('AND', 'OR', 'NOT', 'a b', 'x"y', 'back\\slash', 'bfcl*', 'orders.list')),
  }),
);
const query: fc.Arbitrary<CaseQuery> = fc.letrec<{ q: CaseQuery }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term,
    fc.record({ type: fc.constant('not' as const), item: tie('q') }),
    fc.record({ type: fc.constant('and' as const), items: fc.array(tie('q'), { minLength: 2, maxLength: 3 }) }),
    fc.record({ type: fc.constant('or' as const), items: fc.array(tie('q'), { minLength: 2, maxLength: 3 }) }),
  ),
})).q;

describe('printCaseQuery', () => {
  it('parses back to the same tree (property)', () => {
    fc.assert(
      fc.property(query, (q) => {
        expect(parseCaseQuery(printCaseQuery(q))).toEqual(q);
      }),
      { numRuns: 500 },
    );
  });

  it('prints canonical text', () => {
    expect(printCaseQuery(parseCaseQuery('(tag:a OR tag:"b c") AND NOT complexity>=4'))).toBe(
      '(tags:a OR tags:"b c") AND NOT complexity_level>=4',
    );
  });
});

const tc = (id: string, metadata: Record<string, unknown>, tools: string[], nl = 'find the order'): TestCase =>
  TestCaseSchema.parse({ id, nl_query: nl, expected_tool_calls: tools.map((tool_name) => ({ tool_name, arguments: {} })), metadata });

describe('matchesCaseQuery', () => {
  const cases = [
    tc('a', { complexity_level: 5, tags: ['search', 'orders'], category: 'orders', source: 'native' }, ['orders.search']),
    tc('b', { complexity_level: 4, tags: ['search'], category: 'billing', source: 'bfcl:simple' }, ['invoices.list']),
    tc('c', { complexity_level: 2, tags: [], category: 'billing' }, [], 'What is my BALANCE?'),
  ];
  it.each<[string, string[]]>([
    ['complexity_level:5 AND tags:search', ['a']],
    ['complexity_level>=4', ['a', 'b']],
    ['complexity_level<4 OR category:orders', ['a', 'c']],
    ['NOT tags:search', ['c']],
    ['source:bfcl*', ['b']],
    ['source!=native', ['b', 'c']],
    ['tool:invoices.list', ['b']],
    ['text:balance', ['c']],
    ['id:a OR id:c', ['a', 'c']],
    ['category:billing AND NOT (tool:invoices.list)', ['c']],
  ])('%s', (text, ids) => {
    const q = parseCaseQuery(text);
    expect(cases.filter((c) => matchesCaseQuery(q, c)).map((c) => c.id)).toEqual(ids);
  });
});
