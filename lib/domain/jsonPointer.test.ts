import { describe, expect, it } from 'vitest';
import { escapePointerSegment, pointerOf, pointersUnder, segmentsOf } from './index.js';

describe('JSON pointers (RFC 6901)', () => {
  it.each<[(string | number)[], string]>([
    [[], ''],
    [['a'], '/a'],
    [['filters', 0, 'price'], '/filters/0/price'],
    [['a/b', 'm~n', ''], '/a~1b/m~0n/'],
    [['~1'], '/~01'],
  ])('%j <-> %s', (segments, pointer) => {
    expect(pointerOf(segments)).toBe(pointer);
    expect(segmentsOf(pointer)).toEqual(segments.map(String));
  });

  it('escapes only when needed', () => {
    const plain = 'customer_id';
    expect(escapePointerSegment(plain)).toBe(plain);
  });

  it('re-roots the pointers under a prefix', () => {
    expect(
      pointersUnder(['/content/1/input/a', '/content/1/inputs/b', '/content/10/input/c', '/content/1/input/x/0'], '/content/1/input'),
    ).toEqual(['/a', '/x/0']);
  });
});
