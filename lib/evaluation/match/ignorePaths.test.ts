import { describe, expect, it } from 'vitest';
import { compilePointerPatterns } from './ignorePaths.js';
import { childPointer } from '../../domain/index.js';

describe('JSON pointers', () => {
  it('escapes ~ and / in keys', () => {
    expect(childPointer('', 'a/b~c')).toBe('/a~1b~0c');
    expect(childPointer('/x', 3)).toBe('/x/3');
  });

  it.each([
    [['/meta/request_id'], '/meta/request_id', true],
    [['/meta/request_id'], '/meta/request_idx', false],
    [['/items/*/updated_at'], '/items/12/updated_at', true],
    [['/items/*/updated_at'], '/items/12/price', false],
    [['/*'], '/anything', true],
    [['/a.b'], '/aXb', false],
    [[''], '', true],
  ])('%j matches %s: %s', (patterns, path, matches) => {
    expect(compilePointerPatterns(patterns)!.test(path)).toBe(matches);
  });

  it('rejects a pattern that is not a pointer, and compiles nothing for no patterns', () => {
    expect(() => compilePointerPatterns(['meta/id'])).toThrow(/not a JSON pointer/);
    expect(compilePointerPatterns([])).toBeUndefined();
  });
});
