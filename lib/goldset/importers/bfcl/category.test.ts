import { describe, expect, it } from 'vitest';
import { categoryFromId, describeCategory } from './category.js';

describe('categoryFromId', () => {
  it.each([
    ['simple_0', 'simple'],
    ['simple_python_12', 'simple_python'],
    ['parallel_multiple_3', 'parallel_multiple'],
    ['live_simple_19-3-15', 'live_simple'],
    ['live_irrelevance_0-0-0', 'live_irrelevance'],
    ['java_7', 'java'],
    ['no-number', undefined],
    ['_5', undefined],
  ])('%s -> %s', (id, category) => {
    expect(categoryFromId(id)).toBe(category);
  });
});

describe('describeCategory', () => {
  it.each([
    ['simple', { name: 'simple', kind: 'simple', language: 'python', complexity: 1 }],
    ['simple_python', { name: 'simple_python', kind: 'simple', language: 'python', complexity: 1 }],
    ['multiple', { name: 'multiple', kind: 'multiple', language: 'python', complexity: 2 }],
    ['parallel', { name: 'parallel', kind: 'parallel', language: 'python', complexity: 3 }],
    ['parallel_multiple', { name: 'parallel_multiple', kind: 'parallel_multiple', language: 'python', complexity: 4 }],
    ['irrelevance', { name: 'irrelevance', kind: 'irrelevance', language: 'python', complexity: 1 }],
    ['java', { name: 'java', kind: 'simple', language: 'java', complexity: 1 }],
    ['simple_javascript', { name: 'simple_javascript', kind: 'simple', language: 'javascript', complexity: 1 }],
    ['live_simple', { name: 'live_simple', kind: 'simple', language: 'python', complexity: 5 }],
    ['live_parallel_multiple', { name: 'live_parallel_multiple', kind: 'parallel_multiple', language: 'python', complexity: 5 }],
    ['live_irrelevance', { name: 'live_irrelevance', kind: 'irrelevance', language: 'python', complexity: 5 }],
    ['interest_simple', { name: 'interest_simple', kind: 'simple', language: 'python', complexity: 1 }],
  ])('%s', (name, expected) => {
    expect(describeCategory(name)).toEqual(expected);
  });

  it.each([
    ['multi_turn_base', /is multi-turn: import it as conversation cases/],
    ['memory_kv', /is agentic/],
    ['web_search_base', /is agentic/],
    ['live_relevance', /passes any call at all/],
    ['exec_simple', /only AST categories/],
    ['rest', /only AST categories/],
    ['format_sensitivity', /only AST categories/],
    ['chitchat', /^unknown BFCL category "chitchat"/],
  ])('refuses %s with a reason', (name, reason) => {
    expect(describeCategory(name)).toMatch(reason);
  });
});
