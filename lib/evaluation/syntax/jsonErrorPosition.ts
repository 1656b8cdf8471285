import { describePosition } from './describeValue.js';

/**
 * Where JSON text stops being valid. Node's JSON.parse messages name a position only for some errors
 * ("Unexpected token ']', "[1,]" is not valid JSON" has none), so a failed parse is re-scanned here to give
 * every message a position. Only runs on the error path; iterative, so deep nesting is fine.
 */
class Stop {
  constructor(readonly position: number) {}
}

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/** The offset of the first character that makes `text` invalid JSON, or -1 when it is valid. */
export function jsonErrorPosition(text: string): number {
  try {
    scan(text);
    return -1;
  } catch (e) {
    if (e instanceof Stop) return e.position;
    throw e;
  }
}

function scan(text: string): void {
  const n = text.length;
  const ws = (i: number): number => {
    while (i < n && WS.has(text[i] as string)) i++;
    return i;
  };
  const expect = (i: number, ch: string): number => {
    if (text[i] !== ch) throw new Stop(i);
    return i + 1;
  };
  const string = (i: number): number => {
    i = expect(i, '"');
    while (i < n) {
      const ch = text[i] as string;
      if (ch === '"') return i + 1;
      if (ch < ' ') throw new Stop(i);
      if (ch === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Stop(i);
          i += 6;
        } else if (e !== undefined && ESCAPES.has(e)) i += 2;
        else throw new Stop(i);
      } else i++;
    }
    throw new Stop(n);
  };
  const scalar = (i: number): number => {
    const ch = text[i];
    if (ch === '"') return string(i);
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return i + word.length;
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) return NUMBER.lastIndex;
    throw new Stop(i);
  };
  const inObject: boolean[] = [];
  const member = (i: number): number => expect(ws(string(ws(i))), ':');
  let i = 0;
  for (;;) {
    // a value starts at i
    i = ws(i);
    if (i >= n) throw new Stop(n);
    const open = text[i];
    if (open === '{' || open === '[') {
      const isObject = open === '{';
      i = ws(i + 1);
      if (text[i] === (isObject ? '}' : ']')) i++;
      else {
        inObject.push(isObject);
        if (isObject) i = member(i);
        continue;
      }
    } else i = scalar(i);
    // after a value: close containers, or find the next member
    for (;;) {
      i = ws(i);
      if (inObject.length === 0) {
        if (i < n) throw new Stop(i);
        return;
      }
      const isObject = inObject[inObject.length - 1] as boolean;
      if (text[i] === ',') {
        i = isObject ? member(i + 1) : i + 1;
        break;
      }
      if (text[i] === (isObject ? '}' : ']')) {
        inObject.pop();
        i++;
        continue;
      }
      throw new Stop(i);
    }
  }
}

/** "Expected ',' or '}' after property value at position 8, before `\"b\"}`": Node's reason plus a position. */
export function describeJsonError(text: string, error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const reason = raw.replace(/ in JSON at position \d+[\s\S]*$/, '').replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '');
  const position = jsonErrorPosition(text);
  if (position < 0 || position >= text.length) return `${reason} ${describePosition(text, text.length)}; is it truncated?`;
  return `${reason} ${describePosition(text, position)}`;
}
