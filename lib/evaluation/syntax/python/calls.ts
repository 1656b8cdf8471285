import type { JsonValue } from '../../../domain/index.js';
import { show, TokenCursor } from './cursor.js';
import { PythonSyntaxError, tokenize } from './tokenizer.js';
import { setOwn } from '../plainJson.js';
import { parseValue, type ValueContext } from './values.js';

/** One call parsed from Python-style text. */
export interface PythonCall {
  /** the (possibly dotted) function name: `math.factorial` */
  name: string;
  arguments: Record<string, JsonValue>;
  /** JSON pointers of float-form integral numbers (`n=5.0` -> `/n`) */
  floatPaths: string[];
  /** the call's own source text: `math.factorial(n=5)` */
  text: string;
}

export type PythonCallsResult = { ok: true; calls: PythonCall[] } | { ok: false; message: string; position: number };

const VALUE_STARTS = new Set(['[', '(', '{', '-', '+']);

/**
 * Parse Python-style call text: `fn(a=1, b="x")`, a list `[f(a=1), g(b=[1, 2])]`, or calls one after another
 * (separated by newlines, `,` or `;`). Keyword arguments only; values are literals (see parseValue). A
 * real tokenizer and recursive-descent parser: nothing is evaluated.
 */
export function parsePythonCalls(text: string): PythonCallsResult {
  try {
    const cursor = new TokenCursor(tokenize(text));
    const calls: PythonCall[] = [];
    if (cursor.accept('[')) {
      while (!cursor.accept(']')) {
        calls.push(parseCall(cursor, text));
        if (!cursor.accept(',')) {
          cursor.expect(']', "or ',' after a call in the list");
          break;
        }
      }
    } else {
      do {
        calls.push(parseCall(cursor, text));
        if (!cursor.accept(',')) cursor.accept(';');
      } while (cursor.peek().kind !== 'end');
    }
    const rest = cursor.peek();
    if (rest.kind !== 'end') throw cursor.error(`unexpected ${show(rest)} after the calls`);
    return { ok: true, calls };
  } catch (error) {
    if (error instanceof PythonSyntaxError) return { ok: false, message: error.message, position: error.position };
    throw error;
  }
}

function parseCall(cursor: TokenCursor, source: string): PythonCall {
  const first = cursor.next();
  if (first.kind !== 'name') throw cursor.error(`expected a function name, found ${show(first)}`, first);
  let name = first.text;
  while (cursor.accept('.')) {
    const part = cursor.next();
    if (part.kind !== 'name') throw cursor.error(`expected a name after '${name}.', found ${show(part)}`, part);
    name += '.' + part.text;
  }
  cursor.expect('(', `after the function name '${name}'`);
  const args: Record<string, JsonValue> = {};
  const context: ValueContext = { path: [], floatPaths: [] };
  let end: number;
  for (;;) {
    if (cursor.at(')')) {
      end = cursor.next().end;
      break;
    }
    const key = cursor.peek();
    if (key.kind !== 'name' || !cursor.at('=', 1)) throw notKeyword(cursor, name);
    cursor.next();
    cursor.next();
    if (Object.hasOwn(args, key.text)) throw cursor.error(`argument '${key.text}' is given twice in ${name}()`, key);
    context.path.push(key.text);
    setOwn(args, key.text, parseValue(cursor, context, 1));
    context.path.pop();
    if (!cursor.accept(',')) {
      end = cursor.expect(')', `or ',' after argument '${key.text}' of ${name}()`).end;
      break;
    }
  }
  return { name, arguments: args, floatPaths: context.floatPaths, text: source.slice(first.start, end) };
}

function notKeyword(cursor: TokenCursor, name: string): PythonSyntaxError {
  const token = cursor.peek();
  const startsValue = token.kind === 'string' || token.kind === 'number' || token.kind === 'name' || VALUE_STARTS.has(token.text);
  if (token.kind === 'end' || !startsValue) return cursor.error(`expected an argument or ')' in ${name}(), found ${show(token)}`);
  return cursor.error(`positional argument in ${name}(): tool calls need named arguments (name=value)`);
}
