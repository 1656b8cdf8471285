import { describe, expect, it } from 'vitest';
import { linesOf, numberedLines, type NumberedLine } from './lines.js';

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('numberedLines', () => {
  it.each<[string, string | string[], NumberedLine[]]>([
    [
      'text',
      'a\nb\n',
      [
        { line: 1, text: 'a' },
        { line: 2, text: 'b' },
      ],
    ],
    [
      'text without a final newline, CRLF, blank lines',
      'a\r\n\r\n  \nb',
      [
        { line: 1, text: 'a' },
        { line: 4, text: 'b' },
      ],
    ],
    [
      'a BOM on the first line',
      '\uFEFFa\n\uFEFFb',
      [
        { line: 1, text: 'a' },
        { line: 2, text: '\uFEFFb' },
      ],
    ],
    [
      'lines as items (readline style)',
      ['a', '', 'b'],
      [
        { line: 1, text: 'a' },
        { line: 3, text: 'b' },
      ],
    ],
    [
      'items holding several lines',
      ['a\nb\n', 'c'],
      [
        { line: 1, text: 'a' },
        { line: 2, text: 'b' },
        { line: 3, text: 'c' },
      ],
    ],
  ])('%s', async (_label, input, expected) => {
    expect(await all(numberedLines(input))).toEqual(expected);
  });
});

describe('linesOf', () => {
  it('splits text and byte chunks at any boundary, multi-byte characters included', async () => {
    const bytes = new TextEncoder().encode('héllo\nwörld\n\nend');
    const chunks = Array.from({ length: bytes.length }, (_, i) => bytes.slice(i, i + 1));
    expect(await all(linesOf(chunks))).toEqual(['héllo', 'wörld', '', 'end']);
    expect(await all(linesOf(['a', 'b\nc', '\n']))).toEqual(['ab', 'c']);
  });
});
