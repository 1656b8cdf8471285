import type { LinesInput } from './types.js';

export interface NumberedLine {
  /** 1-based physical line number (blank lines count). */
  line: number;
  text: string;
}

/**
 * The non-blank lines of a text, with their 1-based line numbers. Accepts the text as a whole or as lines (items that
 * hold several lines are split at '\n'); strips a trailing '\r' and a leading byte-order mark.
 */
export async function* numberedLines(input: LinesInput): AsyncGenerator<NumberedLine> {
  let line = 0;
  for await (const item of asIterable(input)) {
    let start = 0;
    for (;;) {
      const nl = item.indexOf('\n', start);
      const end = nl === -1 ? item.length : nl;
      line += 1;
      let text = item.slice(start, end);
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.trim() !== '') yield { line, text };
      if (nl === -1) break;
      start = nl + 1;
      // text ending with '\n' closes its last line: no empty line after it
      if (start === item.length) break;
    }
  }
}

/** Turns a stream of text or byte chunks (a file or request body, any chunk boundaries) into its lines. */
export async function* linesOf(chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  for await (const chunk of chunks) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    let nl = pending.indexOf('\n');
    while (nl !== -1) {
      yield pending.slice(start, nl);
      start = nl + 1;
      nl = pending.indexOf('\n', start);
    }
    pending = pending.slice(start);
  }
  pending += decoder.decode();
  if (pending !== '') yield pending;
}

function asIterable(input: LinesInput): Iterable<string> | AsyncIterable<string> {
  return typeof input === 'string' ? [input] : input;
}
