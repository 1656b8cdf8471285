import { describe, expect, it } from 'vitest';
import { etagMatches } from './etags.js';

const current = '"3f1c-etag"';

describe('etagMatches', () => {
  it.each<[string | null, boolean]>([
    [null, true],
    ['', true],
    ['*', true],
    [' * ', true],
    ['"3f1c-etag"', true],
    ['W/"3f1c-etag"', true],
    ['3f1c-etag', true],
    ['"other", "3f1c-etag"', true],
    ['"other"', false],
    ['"3f1c-etag-2"', false],
    ['W/"other", "x"', false],
  ])('If-Match %j -> %s', (header, expected) => {
    expect(etagMatches(header, current)).toBe(expected);
  });
});
