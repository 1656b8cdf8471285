import type { TestCase } from './testCase.js';

/**
 * A query over test cases (`evalp submit --query`, `POST /api/v1/runs {query}`, a dynamic suite's `query`):
 *
 *   query   := or
 *   or      := and ( "OR" and )*
 *   and     := not ( "AND" not )*
 *   not     := "NOT" not | "(" or ")" | term
 *   term    := field op value
 *   op      := ":" | "=" | "!=" | ">=" | "<=" | ">" | "<"
 *   value   := word | "quoted \"text\""          word: letters, digits and _ . - / @ *
 *
 * Keywords are upper case. Fields: `category`, `tags` (the case has the tag), `complexity_level` (a number: all six
 * operators), `tool` (one of its expected calls, in any turn, calls that tool), `source`, `api_version`, `author`,
 * `id`, `text` (the question contains it, case-insensitively). `:` and `=` are equality, `!=` its negation; a `*`
 * in a word value of a text field matches any characters (`category:billing*`). Example:
 * `complexity_level>=4 AND (tags:search OR tool:"orders.list") AND NOT source:bfcl*`.
 */
export type CaseQuery =
  | { type: 'or'; items: CaseQuery[] }
  | { type: 'and'; items: CaseQuery[] }
  | { type: 'not'; item: CaseQuery }
  | { type: 'term'; field: CaseQueryField; op: CaseQueryOp; value: string | number };

export const CASE_QUERY_FIELDS = ['category', 'tags', 'complexity_level', 'tool', 'source', 'api_version', 'author', 'id', 'text'] as const;
export type CaseQueryField = (typeof CASE_QUERY_FIELDS)[number];
export const CASE_QUERY_OPS = [':', '=', '!=', '>=', '<=', '>', '<'] as const;
export type CaseQueryOp = (typeof CASE_QUERY_OPS)[number];

const NUMERIC_FIELDS: ReadonlySet<CaseQueryField> = new Set(['complexity_level']);
/** other spellings people type */
const FIELD_ALIASES: Readonly<Record<string, CaseQueryField>> = {
  tag: 'tags',
  complexity: 'complexity_level',
  tool_name: 'tool',
  tools: 'tool',
};
const KEYWORDS = new Set(['AND', 'OR', 'NOT']);
const WORD = /^[A-Za-z0-9_.\-/@*]+$/;

/** A query that does not parse: `position` is the 0-based offset in the text where it goes wrong. */
export class CaseQueryError extends Error {
  constructor(
    readonly reason: string,
    readonly position: number,
    readonly query: string,
  ) {
    super(`query: ${reason} at position ${position + 1}\n  ${query}\n  ${' '.repeat(position)}^`);
    this.name = 'CaseQueryError';
  }
}

type Token = { kind: 'word' | 'string' | 'op' | '(' | ')' | 'end'; text: string; pos: number };

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: c, text: c, pos: i++ });
    } else if (c === '"') {
      const start = i++;
      let text = '';
      while (i < query.length && query[i] !== '"') {
        if (query[i] === '\\' && i + 1 < query.length) i++;
        text += query[i++];
      }
      if (i >= query.length) throw new CaseQueryError('unterminated quoted value', start, query);
      i++;
      tokens.push({ kind: 'string', text, pos: start });
    } else if (/[:=!<>]/.test(c)) {
      const two = query.slice(i, i + 2);
      const op = ['!=', '>=', '<='].includes(two) ? two : c;
      if (op === '!') throw new CaseQueryError('"!" must be "!="', i, query);
      tokens.push({ kind: 'op', text: op, pos: i });
      i += op.length;
    } else if (/[A-Za-z0-9_.\-/@*]/.test(c)) {
      const start = i;
      while (i < query.length && /[A-Za-z0-9_.\-/@*]/.test(query[i]!)) i++;
      tokens.push({ kind: 'word', text: query.slice(start, i), pos: start });
    } else {
      throw new CaseQueryError(`unexpected character "${c}"`, i, query);
    }
  }
  tokens.push({ kind: 'end', text: '', pos: query.length });
  return tokens;
}

/** Parses a query (CaseQueryError naming the position otherwise). */
export function parseCaseQuery(query: string): CaseQuery {
  const tokens = tokenize(query);
  let at = 0;
  const peek = (): Token => tokens[at]!;
  const fail = (reason: string, token: Token = peek()): never => {
    throw new CaseQueryError(reason, token.pos, query);
  };
  const isKeyword = (t: Token, k: string): boolean => t.kind === 'word' && t.text === k;

  const parseOr = (): CaseQuery => {
    const items = [parseAnd()];
    while (isKeyword(peek(), 'OR')) {
      at++;
      items.push(parseAnd());
    }
    return items.length === 1 ? items[0]! : { type: 'or', items };
  };
  const parseAnd = (): CaseQuery => {
    const items = [parseNot()];
    while (isKeyword(peek(), 'AND')) {
      at++;
      items.push(parseNot());
    }
    return items.length === 1 ? items[0]! : { type: 'and', items };
  };
  const parseNot = (): CaseQuery => {
    const t = peek();
    if (isKeyword(t, 'NOT')) {
      at++;
      return { type: 'not', item: parseNot() };
    }
    if (t.kind === '(') {
      at++;
      const inner = parseOr();
      if (peek().kind !== ')') fail('expected ")"');
      at++;
      return inner;
    }
    return parseTerm();
  };
  const parseTerm = (): CaseQuery => {
    const t = peek();
    if (t.kind === 'end') fail('expected a condition such as tags:search');
    if (t.kind !== 'word' || KEYWORDS.has(t.text)) fail(`expected a field (${CASE_QUERY_FIELDS.join(', ')})`);
    const field = (CASE_QUERY_FIELDS as readonly string[]).includes(t.text) ? (t.text as CaseQueryField) : FIELD_ALIASES[t.text];
    if (!field) fail(`unknown field "${t.text}" (fields: ${CASE_QUERY_FIELDS.join(', ')})`);
    at++;
    const opToken = peek();
    if (opToken.kind !== 'op') fail(`expected an operator (: = != >= <= > <) after "${t.text}"`);
    const op = opToken.text as CaseQueryOp;
    at++;
    const v = peek();
    if (v.kind !== 'word' && v.kind !== 'string') fail(`expected a value after "${t.text}${op}"`);
    if (v.kind === 'word' && KEYWORDS.has(v.text)) fail(`expected a value after "${t.text}${op}" (quote "${v.text}" to mean the word)`);
    at++;
    if (NUMERIC_FIELDS.has(field!)) {
      const n = Number(v.text);
      if (v.text.trim() === '' || !Number.isFinite(n)) fail(`${field} takes a number, not "${v.text}"`, v);
      return { type: 'term', field: field!, op, value: n };
    }
    if (!['=', ':', '!='].includes(op)) fail(`${field} takes :, = or != (only complexity_level takes >, <, >=, <=)`, opToken);
    return { type: 'term', field: field!, op, value: v.text };
  };

  const result = parseOr();
  if (peek().kind !== 'end') fail(peek().kind === ')' ? 'unbalanced ")"' : 'expected AND, OR or the end of the query');
  return result;
}

/** The query as text that parses back to the same tree (each nested AND/OR in parentheses, values quoted when needed). */
export function printCaseQuery(q: CaseQuery): string {
  const group = (child: CaseQuery): string =>
    child.type === 'and' || child.type === 'or' ? `(${printCaseQuery(child)})` : printCaseQuery(child);
  switch (q.type) {
    case 'or':
      return q.items.map(group).join(' OR ');
    case 'and':
      return q.items.map(group).join(' AND ');
    case 'not':
      return `NOT ${group(q.item)}`;
    case 'term': {
      const text = String(q.value);
      const value = typeof q.value === 'number' || (WORD.test(text) && !KEYWORDS.has(text)) ? text : `"${text.replace(/["\\]/g, '\\$&')}"`;
      return `${q.field}${q.op}${value}`;
    }
  }
}

/** Whether a case matches the query. */
export function matchesCaseQuery(q: CaseQuery, tc: TestCase): boolean {
  switch (q.type) {
    case 'or':
      return q.items.some((i) => matchesCaseQuery(i, tc));
    case 'and':
      return q.items.every((i) => matchesCaseQuery(i, tc));
    case 'not':
      return !matchesCaseQuery(q.item, tc);
    case 'term':
      return termMatches(q, tc);
  }
}

function termMatches(q: Extract<CaseQuery, { type: 'term' }>, tc: TestCase): boolean {
  const m = tc.metadata;
  if (q.field === 'complexity_level') {
    const level = m?.complexity_level ?? 1;
    const n = q.value as number;
    const ok = {
      ':': level === n,
      '=': level === n,
      '!=': level !== n,
      '>=': level >= n,
      '<=': level <= n,
      '>': level > n,
      '<': level < n,
    }[q.op];
    return ok;
  }
  const value = String(q.value);
  if (q.field === 'text') {
    const has = (tc.nl_query ?? '').toLowerCase().includes(value.toLowerCase());
    return q.op === '!=' ? !has : has;
  }
  const candidates: string[] =
    q.field === 'tags'
      ? (m?.tags ?? [])
      : q.field === 'tool'
        ? [...(tc.expected_tool_calls ?? []), ...(tc.turns ?? []).flatMap((t) => t.expected_tool_calls ?? [])].map((c) => c.tool_name)
        : q.field === 'id'
          ? [tc.id]
          : [m?.[q.field]].filter((x): x is string => typeof x === 'string');
  const pattern = value.includes('*') ? new RegExp(`^${value.split('*').map(escapeRegExp).join('.*')}$`) : undefined;
  const has = candidates.some((c) => (pattern ? pattern.test(c) : c === value));
  return q.op === '!=' ? !has : has;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
