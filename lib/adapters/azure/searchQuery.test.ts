import { describe, expect, it } from 'vitest';
import type { TestCaseFilter } from '../../domain/index.js';
import { keysetAfter, odataFilter, searchText } from './searchQuery.js';

describe('searchText', () => {
  it.each<[string, string | undefined]>([
    ['weather', 'weather*'],
    ['Zürich', 'zurich*'],
    ['flight tok', 'flight tok*'],
    ['tok flight', 'tok flight*'],
    ['to', 'to'],
    ['get_weather', '"get" weather*'],
    ['get_weather paris', '"get weather" paris*'],
    ['"hello"', 'hello*'],
    ['NOT goodbye', 'not goodbye*'],
    ['AND', 'and*'],
    ['nl_query:hello', '"nl query" hello*'],
    ['+a -b | c', 'a b c'],
    ['*', undefined],
    ['( )', undefined],
  ])('%j -> %j', (q, expected) => {
    expect(searchText(q)).toBe(expected);
  });
});

describe('odataFilter', () => {
  it.each<[string, TestCaseFilter & { organization?: string }, string[], string | undefined]>([
    ['nothing', {}, [], undefined],
    ['an organization', { organization: 'acme' }, [], "organization eq 'acme'"],
    [
      'the default organization (documents from before organizations have none)',
      { organization: 'default', category: 'c' },
      [],
      "(organization eq 'default' or organization eq null) and (category eq 'c')",
    ],
    ['empty tags', { tags: [] }, [], undefined],
    ['one tag', { tags: ['smoke'] }, [], "tags/any(t: t eq 'smoke')"],
    ['tags any, repeated', { tags: ['a', 'b', 'a'] }, [], "tags/any(t: t eq 'a' or t eq 'b')"],
    ['tags all', { tags: ['a', 'b'], tags_mode: 'all' }, [], "tags/any(t: t eq 'a') and tags/any(t: t eq 'b')"],
    ['quotes doubled', { category: "O'Brien's" }, [], "category eq 'O''Brien''s'"],
    [
      'everything, with a keyset bound',
      { tags: ['x'], complexity_min: 2, complexity_max: 4, api_version: 'v1', category: 'c', q: 'ignored here' },
      [keysetAfter("id'1")],
      "(tags/any(t: t eq 'x')) and (complexity ge 2) and (complexity le 4) and (api_version eq 'v1') and (category eq 'c') and (case_id gt 'id''1')",
    ],
  ])('%s', (_label, filter, extra, expected) => {
    expect(odataFilter(filter, extra)).toBe(expected);
  });
});
