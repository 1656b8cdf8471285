/** Tokens of Python-style call text: names, numbers, strings, punctuation. */
export type TokenKind = 'name' | 'number' | 'string' | 'punct' | 'end';

export interface Token {
  kind: TokenKind;
  /** the source text of the token (for strings: the literal with its quotes) */
  text: string;
  /** decoded value: the string's content or the number */
  value: string | number;
  /** a number written with `.` or an exponent */
  float: boolean;
  start: number;
  end: number;
}

/** A syntax error at a character offset; caught by the parser's entry point and turned into data. */
export class PythonSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'PythonSyntaxError';
  }
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?/y;
const PUNCT = new Set(['(', ')', '[', ']', '{', '}', ',', ':', '=', ';', '.', '-', '+']);
const STRING_PREFIX = /^(?:[rRbBuUfF]|[rR][bBfF]|[bBfF][rR])$/;

/** Split call text into tokens; comments (`# …`) and whitespace (including `\`-newline) are skipped. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const ch = text[i] as string;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f') {
      i++;
    } else if (ch === '\\' && (text[i + 1] === '\n' || text[i + 1] === '\r')) {
      i += 2;
    } else if (ch === '#') {
      while (i < n && text[i] !== '\n') i++;
    } else if (ch === '"' || ch === "'") {
      i = pushString(text, i, i, false, tokens);
    } else if ((ch >= '0' && ch <= '9') || (ch === '.' && isDigit(text[i + 1]))) {
      NUMBER.lastIndex = i;
      NUMBER.test(text);
      const end = NUMBER.lastIndex;
      const literal = text.slice(i, end);
      const next = text[end];
      if (next !== undefined && /[A-Za-z0-9_.]/.test(next)) {
        throw new PythonSyntaxError(`invalid number literal ${JSON.stringify(text.slice(i, end + 1))}`, i);
      }
      const isRadix = /^0[xXoObB]/.test(literal);
      const value = Number(literal.replace(/_/g, ''));
      if (Number.isNaN(value)) throw new PythonSyntaxError(`invalid number literal ${JSON.stringify(literal)}`, i);
      tokens.push({ kind: 'number', text: literal, value, float: !isRadix && /[.eE]/.test(literal), start: i, end });
      i = end;
    } else if (/[A-Za-z_]/.test(ch)) {
      NAME.lastIndex = i;
      NAME.test(text);
      const end = NAME.lastIndex;
      const name = text.slice(i, end);
      const quote = text[end];
      if ((quote === '"' || quote === "'") && STRING_PREFIX.test(name)) {
        i = pushString(text, i, end, /[rR]/.test(name), tokens);
      } else {
        tokens.push({ kind: 'name', text: name, value: name, float: false, start: i, end });
        i = end;
      }
    } else if (PUNCT.has(ch)) {
      tokens.push({ kind: 'punct', text: ch, value: ch, float: false, start: i, end: i + 1 });
      i++;
    } else {
      throw new PythonSyntaxError(`unexpected character ${JSON.stringify(ch)}`, i);
    }
  }
  tokens.push({ kind: 'end', text: '', value: '', float: false, start: n, end: n });
  return tokens;
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

/** Read a string literal whose quote is at `quoteAt` (`start` includes any prefix); push it, return its end. */
function pushString(text: string, start: number, quoteAt: number, raw: boolean, tokens: Token[]): number {
  const quote = text[quoteAt] as string;
  const triple = text.startsWith(quote.repeat(3), quoteAt);
  const closer = triple ? quote.repeat(3) : quote;
  let i = quoteAt + closer.length;
  let value = '';
  for (;;) {
    if (i >= text.length) throw new PythonSyntaxError('unterminated string literal', start);
    const ch = text[i] as string;
    if (ch === quote && text.startsWith(closer, i)) break;
    if ((ch === '\n' || ch === '\r') && !triple) {
      throw new PythonSyntaxError('line break inside a string literal (close the quote or use \\n)', i);
    }
    if (ch !== '\\') {
      // copy the run up to the next quote, backslash or line break in one slice
      let j = i + 1;
      while (j < text.length) {
        const c = text.charCodeAt(j);
        if (c === 0x5c || c === 0x0a || c === 0x0d || text[j] === quote) break;
        j++;
      }
      value += text.slice(i, j);
      i = j;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) throw new PythonSyntaxError('unterminated string literal', start);
    if (raw) {
      value += ch + next;
      i += 2;
      continue;
    }
    const [decoded, length] = decodeEscape(text, i);
    value += decoded;
    i += length;
  }
  const end = i + closer.length;
  tokens.push({ kind: 'string', text: text.slice(start, end), value, float: false, start, end });
  return end;
}

const SIMPLE_ESCAPES = new Map<string, string>([
  ['n', '\n'],
  ['t', '\t'],
  ['r', '\r'],
  ['\\', '\\'],
  ["'", "'"],
  ['"', '"'],
  ['a', '\x07'],
  ['b', '\b'],
  ['f', '\f'],
  ['v', '\v'],
  ['\n', ''],
]);

/** Decode the escape sequence at `at` (a backslash): returns the text and how many characters it used. */
function decodeEscape(text: string, at: number): [string, number] {
  const next = text[at + 1] as string;
  const simple = SIMPLE_ESCAPES.get(next);
  if (simple !== undefined) return [simple, 2];
  if (next === '\r') return ['', text[at + 2] === '\n' ? 3 : 2];
  const hexLength = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
  if (hexLength > 0) {
    const hex = text.slice(at + 2, at + 2 + hexLength);
    const code = /^[0-9a-fA-F]+$/.test(hex) && hex.length === hexLength ? parseInt(hex, 16) : NaN;
    if (Number.isNaN(code) || code > 0x10ffff) {
      throw new PythonSyntaxError(`invalid \\${next} escape (expected ${hexLength} hex digits)`, at);
    }
    return [String.fromCodePoint(code), 2 + hexLength];
  }
  const octal = /^[0-7]{1,3}/.exec(text.slice(at + 1, at + 4));
  if (octal) return [String.fromCharCode(parseInt(octal[0], 8)), 1 + octal[0].length];
  if (next === 'N') throw new PythonSyntaxError('\\N{…} named escapes are not supported', at);
  return ['\\' + next, 2];
}
