/**
 * A small, honest reader of Bicep source for infra.test.ts (the Bicep compiler is a .NET binary that cannot run
 * here; CI builds and lints with it). It tokenizes (strings with escapes and `${}` interpolation, multi-line
 * strings, comments) and reads the declarations (param, var, resource, module, output; nested resources) into a
 * tree of objects, arrays, loops and conditions; any other expression is kept as its source text. It does not
 * evaluate or type-check anything.
 */
export type Node =
  | { kind: 'object'; entries: Array<{ key: string; value: Node }> }
  | { kind: 'array'; items: Node[] }
  | { kind: 'for'; header: string; body: Node }
  | { kind: 'if'; condition: string; body: Node }
  | { kind: 'raw'; text: string };

export interface Declaration {
  keyword: 'param' | 'var' | 'resource' | 'module' | 'output' | 'func' | 'targetScope' | 'type' | 'import' | 'metadata';
  name: string;
  /** resource: `Type@version` (nested: the short type); module: the path; param/output: the type */
  type?: string;
  existing?: boolean;
  /** the value (param: its default) */
  value?: Node;
  /** the symbol of the resource a nested resource is declared in */
  parent?: string;
  line: number;
}

interface Token {
  kind: 'ident' | 'string' | 'number' | 'punct' | 'newline';
  text: string;
  line: number;
}

const PUNCT = [
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '.?',
  '::',
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  ':',
  ',',
  '.',
  '?',
  '=',
  '!',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '@',
  '|',
];

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  const fail = (message: string): never => {
    throw new SyntaxError(`bicep line ${line}: ${message}`);
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\n') {
      tokens.push({ kind: 'newline', text: '\n', line });
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (source.startsWith('//', i)) {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) fail('unterminated comment');
      line += countLines(source.slice(i, end));
      i = end + 2;
    } else if (source.startsWith("'''", i)) {
      const end = source.indexOf("'''", i + 3);
      if (end < 0) fail('unterminated multi-line string');
      tokens.push({ kind: 'string', text: source.slice(i + 3, end), line });
      line += countLines(source.slice(i, end));
      i = end + 3;
    } else if (c === "'") {
      const start = line;
      let text = '';
      i++;
      for (;;) {
        if (i >= source.length || source[i] === '\n') fail('unterminated string');
        const ch = source[i]!;
        if (ch === '\\') {
          text += source.slice(i, i + 2);
          i += 2;
        } else if (ch === "'") {
          i++;
          break;
        } else if (source.startsWith('${', i)) {
          const from = i;
          let depth = 1;
          i += 2;
          while (depth > 0 && i < source.length) {
            if (source[i] === '{') depth++;
            else if (source[i] === '}') depth--;
            else if (source[i] === "'") i = skipNestedString(source, i, fail);
            i++;
          }
          text += source.slice(from, i);
        } else {
          text += ch;
          i++;
        }
      }
      tokens.push({ kind: 'string', text, line: start });
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i))!;
      tokens.push({ kind: 'ident', text: m[0], line });
      i += m[0].length;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?/.exec(source.slice(i))!;
      tokens.push({ kind: 'number', text: m[0], line });
      i += m[0].length;
    } else {
      const p = PUNCT.find((op) => source.startsWith(op, i));
      if (!p) fail(`unexpected character ${JSON.stringify(c)}`);
      tokens.push({ kind: 'punct', text: p!, line });
      i += p!.length;
    }
  }
  return tokens;
}

function countLines(text: string): number {
  return text.split('\n').length - 1;
}

/** Skips a string inside an interpolation (`'${f('x')}'`); returns the index of its closing quote. */
function skipNestedString(source: string, at: number, fail: (m: string) => never): number {
  let i = at + 1;
  while (i < source.length && source[i] !== "'") i += source[i] === '\\' ? 2 : 1;
  if (i >= source.length) fail('unterminated string in interpolation');
  return i;
}

const DECLARATIONS = new Set(['param', 'var', 'resource', 'module', 'output', 'func', 'targetScope', 'type', 'import', 'metadata']);
const CLOSERS: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

/** Reads every declaration of a Bicep file (nested resources included, with their parent). */
export function parseBicep(source: string): Declaration[] {
  const tokens = tokenize(source);
  const declarations: Declaration[] = [];
  let pos = 0;
  const peek = (offset = 0): Token | undefined => tokens[pos + offset];
  const fail = (message: string): never => {
    throw new SyntaxError(`bicep line ${peek()?.line ?? 'end'}: ${message}`);
  };
  const expect = (text: string): Token => {
    const t = tokens[pos];
    if (t?.text !== text) fail(`expected ${JSON.stringify(text)}, got ${JSON.stringify(t?.text)}`);
    pos++;
    return t!;
  };
  const skipNewlines = () => {
    while (peek()?.kind === 'newline') pos++;
  };
  /** Source text of tokens up to (not including) a newline/`,`/closer at depth 0. */
  const raw = (): Node => {
    const parts: string[] = [];
    let depth = 0;
    for (let t = peek(); t; t = peek()) {
      if (depth === 0 && (t.kind === 'newline' || t.text === ',' || t.text === '}' || t.text === ']' || t.text === ')')) break;
      if (t.text in CLOSERS) depth++;
      else if (t.text === '}' || t.text === ']' || t.text === ')') depth--;
      parts.push(t.kind === 'string' ? `'${t.text}'` : t.text);
      pos++;
    }
    if (parts.length === 0) fail('expected an expression');
    return { kind: 'raw', text: joinTokens(parts) };
  };
  const value = (parent?: string): Node => {
    const t = peek();
    if (t?.text === '{') return object(parent);
    if (t?.text === '[' && peek(1)?.text === 'for') return loop(parent);
    if (t?.text === '[') return array(parent);
    if (t?.text === 'if' && peek(1)?.text === '(') {
      pos++;
      const condition = balanced();
      skipNewlines();
      return { kind: 'if', condition, body: value(parent) };
    }
    return raw();
  };
  const balanced = (): string => {
    const open = peek()!.text;
    const close = CLOSERS[open] ?? fail(`expected a bracket, got ${JSON.stringify(open)}`);
    const parts: string[] = [];
    let depth = 0;
    do {
      const t = peek() ?? fail('unbalanced brackets');
      if (t.text === open) depth++;
      else if (t.text === close) depth--;
      if (t.kind !== 'newline') parts.push(t.kind === 'string' ? `'${t.text}'` : t.text);
      pos++;
    } while (depth > 0);
    return joinTokens(parts.slice(1, -1));
  };
  const object = (parent?: string): Node => {
    expect('{');
    const entries: Array<{ key: string; value: Node }> = [];
    for (;;) {
      while (peek()?.kind === 'newline' || peek()?.text === ',') pos++;
      const t = peek() ?? fail('unterminated object');
      if (t.text === '}') break;
      if (t.text === '@') {
        skipDecorator();
        continue;
      }
      if (t.text === 'resource' && peek(1)?.kind === 'ident') {
        declaration(parent);
        continue;
      }
      if (t.kind !== 'ident' && t.kind !== 'string') fail(`expected a property name, got ${JSON.stringify(t.text)}`);
      pos++;
      expect(':');
      entries.push({ key: t.text, value: value(parent) });
    }
    expect('}');
    return { kind: 'object', entries };
  };
  const array = (parent?: string): Node => {
    expect('[');
    const items: Node[] = [];
    for (;;) {
      while (peek()?.kind === 'newline' || peek()?.text === ',') pos++;
      if ((peek() ?? fail('unterminated array')).text === ']') break;
      items.push(value(parent));
    }
    expect(']');
    return { kind: 'array', items };
  };
  const loop = (parent?: string): Node => {
    expect('[');
    expect('for');
    const parts: string[] = [];
    while (peek() && peek()!.text !== ':') {
      parts.push(peek()!.kind === 'string' ? `'${peek()!.text}'` : peek()!.text);
      pos++;
    }
    expect(':');
    skipNewlines();
    const body = value(parent);
    skipNewlines();
    expect(']');
    return { kind: 'for', header: joinTokens(parts), body };
  };
  const skipDecorator = () => {
    expect('@');
    pos++; // name (possibly sys.name)
    while (peek()?.text === '.') pos += 2;
    if (peek()?.text === '(') balanced();
    skipNewlines();
  };
  const declaration = (parent?: string) => {
    const keyword = peek()!.text as Declaration['keyword'];
    const line = peek()!.line;
    pos++;
    if (keyword === 'targetScope') {
      expect('=');
      declarations.push({ keyword, name: 'targetScope', value: raw(), line });
      return;
    }
    if (keyword === 'func' || keyword === 'type' || keyword === 'import' || keyword === 'metadata') {
      const name = peek()?.text ?? '';
      while (peek() && peek()!.kind !== 'newline') {
        if (peek()!.text in CLOSERS) balanced();
        else pos++;
      }
      declarations.push({ keyword, name, line });
      return;
    }
    const name = (peek() ?? fail('expected a name')).text;
    pos++;
    const d: Declaration = { keyword, name, line, ...(parent ? { parent } : {}) };
    if (keyword === 'resource' || keyword === 'module') {
      d.type = (peek()?.kind === 'string' ? peek()! : fail('expected the type string')).text;
      pos++;
      if (peek()?.text === 'existing') {
        d.existing = true;
        pos++;
      }
      expect('=');
      d.value = value(keyword === 'resource' ? name : parent);
    } else if (keyword === 'param' || keyword === 'output') {
      const type: string[] = [];
      while (peek() && peek()!.text !== '=' && peek()!.kind !== 'newline') {
        type.push(peek()!.kind === 'string' ? `'${peek()!.text}'` : peek()!.text);
        pos++;
      }
      d.type = joinTokens(type);
      if (peek()?.text === '=') {
        pos++;
        d.value = value(parent);
      }
    } else {
      expect('=');
      d.value = value(parent);
    }
    declarations.push(d);
  };
  for (;;) {
    skipNewlines();
    const t = peek();
    if (!t) break;
    if (t.text === '@') skipDecorator();
    else if (t.kind === 'ident' && DECLARATIONS.has(t.text)) declaration();
    else fail(`unexpected ${JSON.stringify(t.text)} at top level`);
  }
  return declarations;
}

/**
 * Tokens back to readable text: no space around `.`, inside brackets or before `,`; `key: value` inside braces,
 * `a ? b : c` for a ternary; spaces around other operators.
 */
function joinTokens(parts: string[]): string {
  let out = '';
  const frames: Array<{ open: string; ternaries: number }> = [{ open: '', ternaries: 0 }];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const previous = parts[i - 1];
    const frame = frames[frames.length - 1]!;
    let tight =
      previous === undefined ||
      previous === '.' ||
      previous === '(' ||
      previous === '[' ||
      previous === '\n' ||
      part === '\n' ||
      part === '.' ||
      part === ')' ||
      part === ']' ||
      part === ',' ||
      (part === '}' && previous === '{') ||
      ((part === '(' || part === '[') && /[A-Za-z0-9_)\]]$/.test(previous) && !KEYWORD_BEFORE_BRACKET.has(previous));
    if (part === '?') frame.ternaries++;
    if (part === ':') {
      if (frame.ternaries > 0) frame.ternaries--;
      else tight = true; // a property key's colon
    }
    if (part in CLOSERS) frames.push({ open: part, ternaries: 0 });
    else if ((part === '}' || part === ']' || part === ')') && frames.length > 1) frames.pop();
    out += tight ? part : ` ${part}`;
  }
  return out.trim();
}

/** Words after which a bracket starts a new expression (`if (`, `for x in [`), not a call or an index. */
const KEYWORD_BEFORE_BRACKET = new Set(['if', 'in', 'for', 'return']);

// ----- queries over the tree -----

/** The object a declaration's value describes, through `if (...)` and `[for ...: ...]`. */
export function bodyOf(node: Node | undefined): Extract<Node, { kind: 'object' }> | undefined {
  if (!node) return undefined;
  if (node.kind === 'object') return node;
  if (node.kind === 'if' || node.kind === 'for') return bodyOf(node.body);
  return undefined;
}

/** The value at a dotted path of object keys (`properties.roleDefinitionId`), or undefined. */
export function valueAt(node: Node | undefined, path: string): Node | undefined {
  let current = node;
  for (const key of path.split('.')) {
    const object = bodyOf(current);
    current = object?.entries.find((e) => e.key === key)?.value;
    if (!current) return undefined;
  }
  return current;
}

/** The source text of a value (objects and arrays flattened), for pattern checks. */
export function textOf(node: Node | undefined): string {
  if (!node) return '';
  switch (node.kind) {
    case 'raw':
      return node.text;
    case 'object':
      return `{ ${node.entries.map((e) => `${e.key}: ${textOf(e.value)}`).join(', ')} }`;
    case 'array':
      return `[${node.items.map(textOf).join(', ')}]`;
    case 'for':
      return `[for ${node.header}: ${textOf(node.body)}]`;
    case 'if':
      return `if (${node.condition}) ${textOf(node.body)}`;
  }
}

/** Keys of an object value, in order. */
export function keysOf(node: Node | undefined): string[] {
  return bodyOf(node)?.entries.map((e) => e.key) ?? [];
}
