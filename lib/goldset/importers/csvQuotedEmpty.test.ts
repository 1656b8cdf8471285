import { describe, expect, it } from 'vitest';
import { mayHaveQuotedEmpty, quotedEmptyCells } from './csvQuotedEmpty.js';

describe('quotedEmptyCells', () => {
  it.each<[string, number[]]>([
    ['a,"",c\n', [1]],
    ['"",b,""', [0, 2]],
    ['a,,c\n', []],
    ['"""",""\r\n', [1]], // a cell holding one quote, then an empty one
    ['"x,"""",y",""', [1]], // quotes and commas inside a quoted cell
    ['"[{""a"":""""}]",', []], // "" inside JSON text is not a cell
    ['"a,"",b"', []], // looks like one to the pre-check, is not
    ['"multi\nline","",\n', [1]],
    ['\r\n\n"",a\r\n', [0]], // raw text after skipped blank lines
  ])('%j -> %j', (raw, cells) => {
    expect([...quotedEmptyCells(raw)]).toEqual(cells);
    // the cheap pre-check may say yes for nothing, never no for something
    if (cells.length > 0) expect(mayHaveQuotedEmpty(raw)).toBe(true);
  });
});
