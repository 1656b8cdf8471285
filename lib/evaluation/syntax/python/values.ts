import { type JsonValue, pointerOf } from '../../../domain/index.js';
import { MAX_NESTING } from '../nesting.js';
import { setOwn } from '../plainJson.js';
import { show, type TokenCursor } from './cursor.js';
import type { Token } from './tokenizer.js';

/** A Map, not an object literal: `constructor` or `__proto__` must not find Object.prototype's members. */
const NAMED_LITERALS = new Map<string, JsonValue>([
  ['True', true],
  ['False', false],
  ['None', null],
  ['true', true],
  ['false', false],
  ['null', null],
]);

/** Collects the JSON pointers of float-form integral numbers while a value is parsed. */
export interface ValueContext {
  path: (string | number)[];
  floatPaths: string[];
}

/**
 * One Python literal as JSON: strings (adjacent ones concatenated), int/float (with a sign), True/False/None
 * (and JSON's true/false/null), lists and tuples (arrays), dicts (objects; number keys become strings), sets
 * (arrays). Anything else (names, calls, operators) is a syntax error.
 */
export function parseValue(cursor: TokenCursor, context: ValueContext, depth = 0): JsonValue {
  if (depth > MAX_NESTING) throw cursor.error(`values nest deeper than ${MAX_NESTING} levels`);
  const token = cursor.next();
  switch (token.kind) {
    case 'string': {
      let text = token.value as string;
      while (cursor.peek().kind === 'string') text += cursor.next().value as string;
      return text;
    }
    case 'number':
      return numberValue(cursor, token, context, 1);
    case 'name': {
      const literal = NAMED_LITERALS.get(token.text);
      if (literal !== undefined) return literal;
      const what = cursor.at('(') || cursor.at('.') ? 'a call or expression' : 'a variable name';
      throw cursor.error(`${what} '${token.text}' is not a literal value (use strings, numbers, True/False/None, lists, dicts)`, token);
    }
    case 'punct':
      break;
    default:
      throw cursor.error(`expected a value, found ${show(token)}`, token);
  }
  switch (token.text) {
    case '-':
    case '+': {
      const number = cursor.next();
      if (number.kind !== 'number') throw cursor.error(`expected a number after '${token.text}', found ${show(number)}`, number);
      return numberValue(cursor, number, context, token.text === '-' ? -1 : 1);
    }
    case '[':
      return parseItems(cursor, context, depth, ']');
    case '(': {
      if (cursor.accept(')')) return [];
      const prefix = pointerOf(context.path);
      const floatsBefore = context.floatPaths.length;
      context.path.push(0);
      const first = parseValue(cursor, context, depth + 1);
      context.path.pop();
      if (cursor.accept(')')) {
        // a parenthesised value, not a tuple: its floats sit at the value's own path, not under /0
        const floats = context.floatPaths;
        for (let i = floatsBefore; i < floats.length; i++) floats[i] = prefix + (floats[i] as string).slice(prefix.length + 2);
        return first;
      }
      cursor.expect(',', "or ')' after a value in parentheses");
      return parseItems(cursor, context, depth, ')', [first]);
    }
    case '{':
      return parseBraces(cursor, context, depth);
    default:
      throw cursor.error(`expected a value, found ${show(token)}`, token);
  }
}

function numberValue(cursor: TokenCursor, token: Token, context: ValueContext, sign: number): number {
  const value = token.value as number;
  if (!Number.isFinite(value)) throw cursor.error('number is too large for JSON', token);
  if (token.float && Number.isInteger(value)) context.floatPaths.push(pointerOf(context.path));
  return sign * value;
}

/** Items up to `close`, with an optional trailing comma; `items` holds any already parsed. */
function parseItems(cursor: TokenCursor, context: ValueContext, depth: number, close: string, items: JsonValue[] = []): JsonValue[] {
  while (!cursor.accept(close)) {
    context.path.push(items.length);
    items.push(parseValue(cursor, context, depth + 1));
    context.path.pop();
    if (!cursor.accept(',')) {
      cursor.expect(close, `or ',' after item ${items.length - 1}`);
      break;
    }
  }
  return items;
}

/** `{}`: a dict `{k: v, ...}`, or a set `{a, b}` (as an array). */
function parseBraces(cursor: TokenCursor, context: ValueContext, depth: number): JsonValue {
  if (cursor.accept('}')) return {};
  if (!cursor.at(':', keyLength(cursor))) return parseItems(cursor, context, depth, '}');
  const dict: Record<string, JsonValue> = {};
  while (!cursor.accept('}')) {
    const key = parseKey(cursor);
    cursor.expect(':', `after dict key ${JSON.stringify(key)}`);
    context.path.push(key);
    setOwn(dict, key, parseValue(cursor, context, depth + 1));
    context.path.pop();
    if (!cursor.accept(',')) {
      cursor.expect('}', `or ',' after the value of dict key ${JSON.stringify(key)}`);
      break;
    }
  }
  return dict;
}

/** How many tokens the next dict key would take: adjacent strings, a signed number, or one token. */
function keyLength(cursor: TokenCursor): number {
  const first = cursor.peek();
  if (first.kind === 'string') {
    let k = 1;
    while (cursor.peek(k).kind === 'string') k++;
    return k;
  }
  return first.kind === 'punct' && (first.text === '-' || first.text === '+') ? 2 : 1;
}

/** A dict key as JSON has it: strings as is, numbers and True/False/None as Python's json.dumps writes them. */
function parseKey(cursor: TokenCursor): string {
  const token = cursor.next();
  if (token.kind === 'string') {
    let text = token.value as string;
    while (cursor.peek().kind === 'string') text += cursor.next().value as string;
    return text;
  }
  let sign = '';
  let number = token;
  if (token.kind === 'punct' && (token.text === '-' || token.text === '+')) {
    sign = token.text === '-' ? '-' : '';
    number = cursor.next();
  }
  if (number.kind === 'number') {
    const value = number.value as number;
    return sign + (number.float && Number.isInteger(value) ? value.toFixed(1) : String(value));
  }
  if (sign === '' && token.kind === 'name' && NAMED_LITERALS.has(token.text)) return JSON.stringify(NAMED_LITERALS.get(token.text));
  throw cursor.error(`expected a dict key (a string or a number), found ${show(number)}`, number);
}
