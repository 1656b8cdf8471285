import { describe, expect, it } from 'vitest';
import { toFtsQuery } from './ftsQuery.js';

describe('toFtsQuery', () => {
  it.each<[string, string | undefined]>([
    ['weather', '"weather"*'],
    ['weather in berlin', '"weather" "in" "berlin"*'],
    ['  spaced\tout\n', '"spaced" "out"*'],
    ['to', '"to"'],
    ['flight to', '"flight" "to"'],
    ['get_weather', '"get_weather"*'],
    ['say "hello"', '"say" """hello"""*'],
    ['AND OR NOT', '"AND" "OR" "NOT"*'],
    ['NEAR(a b)', '"NEAR(a" "b)"'],
    ['col:value', '"col:value"*'],
    ['pre* ^start', '"pre*" "^start"*'],
    ['Zürich', '"Zürich"*'],
    ['日本語', '"日本語"*'],
    ['hel\u0000lo wor\u0007ld', '"hel" "lo" "wor" "ld"'],
    ['* " ( ) :', undefined],
    ['', undefined],
    ['   ', undefined],
  ])('%j -> %j', (text, query) => {
    expect(toFtsQuery(text)).toBe(query);
  });
});
