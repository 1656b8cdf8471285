import { describe, expect, it } from 'vitest';
import { parsePythonCalls, type PythonCall, type PythonCallsResult } from './calls.js';

const one = (text: string, args: PythonCall['arguments'], floatPaths: string[] = [], name = 'f'): PythonCallsResult => ({
  ok: true,
  calls: [{ name, arguments: args, floatPaths, text }],
});

describe('parsePythonCalls: values', () => {
  it.each<[string, string, PythonCallsResult]>([
    ['no arguments', 'f()', one('f()', {})],
    [
      'ints, strings, booleans, None',
      'f(a=1, b="x", c=True, d=False, e=None)',
      one('f(a=1, b="x", c=True, d=False, e=None)', { a: 1, b: 'x', c: true, d: false, e: null }),
    ],
    ['JSON literals too', 'f(a=true, b=false, c=null)', one('f(a=true, b=false, c=null)', { a: true, b: false, c: null })],
    [
      'negative and float numbers',
      'f(a=-1, b=-2.5, c=+3, d=.5, e=1_000, f=0x1F, g=0o17, h=0b101, i=1e-3)',
      one('f(a=-1, b=-2.5, c=+3, d=.5, e=1_000, f=0x1F, g=0o17, h=0b101, i=1e-3)', {
        a: -1,
        b: -2.5,
        c: 3,
        d: 0.5,
        e: 1000,
        f: 31,
        g: 15,
        h: 5,
        i: 0.001,
      }),
    ],
    [
      'float literals with integral values',
      'f(a=5.0, b=-1e3, c=2.50E2, d=7., e=3)',
      one('f(a=5.0, b=-1e3, c=2.50E2, d=7., e=3)', { a: 5, b: -1000, c: 250, d: 7, e: 3 }, ['/a', '/b', '/c', '/d']),
    ],
    ['single and double quotes', `f(a='it"s', b="it's")`, one(`f(a='it"s', b="it's")`, { a: 'it"s', b: "it's" })],
    [
      'escapes',
      String.raw`f(a='line\nnext\ttab \\ \' \" \x41\u00e9\U0001F600 \101 \q')`,
      one(String.raw`f(a='line\nnext\ttab \\ \' \" \x41\u00e9\U0001F600 \101 \q')`, { a: 'line\nnext\ttab \\ \' " Aé😀 A \\q' }),
    ],
    [
      'raw and prefixed strings',
      String.raw`f(a=r'C:\new', b=u"x", c=b'y', d=f"z")`,
      one(String.raw`f(a=r'C:\new', b=u"x", c=b'y', d=f"z")`, { a: 'C:\\new', b: 'x', c: 'y', d: 'z' }),
    ],
    ['triple quotes', 'f(a="""two\nlines""", b=\'\'\'x\'\'\')', one('f(a="""two\nlines""", b=\'\'\'x\'\'\')', { a: 'two\nlines', b: 'x' })],
    ['adjacent strings concatenate', `f(a="ab" 'cd')`, one(`f(a="ab" 'cd')`, { a: 'abcd' })],
    [
      'nested lists, tuples and dicts',
      "f(a=[1, [2, (3, 4)]], b={'k': True, 'n': {'m': [None]}}, c=())",
      one("f(a=[1, [2, (3, 4)]], b={'k': True, 'n': {'m': [None]}}, c=())", {
        a: [1, [2, [3, 4]]],
        b: { k: true, n: { m: [null] } },
        c: [],
      }),
    ],
    ['a one-item tuple and a parenthesised value', 'f(a=(1,), b=(2))', one('f(a=(1,), b=(2))', { a: [1], b: 2 })],
    [
      'trailing commas everywhere',
      "f(a=[1, 2,], b={'k': 1,}, c=(1, 2,),)",
      one("f(a=[1, 2,], b={'k': 1,}, c=(1, 2,),)", { a: [1, 2], b: { k: 1 }, c: [1, 2] }),
    ],
    [
      'dict keys that are numbers or None',
      "f(a={1: 'x', -2: 'y', 3.0: 'z', None: 'n'})",
      one("f(a={1: 'x', -2: 'y', 3.0: 'z', None: 'n'})", { a: { '1': 'x', '-2': 'y', '3.0': 'z', null: 'n' } }),
    ],
    ['a set (as a list)', 'f(a={1, 2})', one('f(a={1, 2})', { a: [1, 2] })],
    ['an empty dict', 'f(a={})', one('f(a={})', { a: {} })],
    [
      'float paths inside containers',
      "f(a=[1, 2.0], b={'k': {'p': 10.0}}, c=(1.0), d=(1, 2e0))",
      one("f(a=[1, 2.0], b={'k': {'p': 10.0}}, c=(1.0), d=(1, 2e0))", { a: [1, 2], b: { k: { p: 10 } }, c: 1, d: [1, 2] }, [
        '/a/1',
        '/b/k/p',
        '/c',
        '/d/1',
      ]),
    ],
    [
      'float paths with keys needing escapes',
      "f(a={'x/y': 1.0, 'm~n': [3.0]})",
      one("f(a={'x/y': 1.0, 'm~n': [3.0]})", { a: { 'x/y': 1, 'm~n': [3] } }, ['/a/x~1y', '/a/m~0n/0']),
    ],
    [
      'whitespace, newlines and comments',
      'f(\n  a = 1,  # the first\n  b = [\n    2,\n  ],\n)',
      one('f(\n  a = 1,  # the first\n  b = [\n    2,\n  ],\n)', { a: 1, b: [2] }),
    ],
    [
      'a __proto__ key stays data',
      "f(a={'__proto__': 1})",
      one("f(a={'__proto__': 1})", JSON.parse('{"a": {"__proto__": 1}}') as PythonCall['arguments']),
    ],
  ])('%s', (_name, text, expected) => {
    expect(parsePythonCalls(text)).toEqual(expected);
  });

  it('keeps a __proto__ key as an own property, not a prototype', () => {
    const result = parsePythonCalls("f(a={'__proto__': {'polluted': 1}})");
    expect(result.ok).toBe(true);
    const a = result.ok ? (result.calls[0]?.arguments.a as Record<string, unknown>) : {};
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
    expect(Object.keys(a)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parsePythonCalls: call lists', () => {
  it.each<[string, string, PythonCall[]]>([
    [
      'a dotted name',
      'math.factorial(n=5)',
      [{ name: 'math.factorial', arguments: { n: 5 }, floatPaths: [], text: 'math.factorial(n=5)' }],
    ],
    [
      'a list of calls',
      "[f(a=1), g(b=[1,2], c={'k': True})]",
      [
        { name: 'f', arguments: { a: 1 }, floatPaths: [], text: 'f(a=1)' },
        { name: 'g', arguments: { b: [1, 2], c: { k: true } }, floatPaths: [], text: "g(b=[1,2], c={'k': True})" },
      ],
    ],
    ['a list with a trailing comma', '[f(a=1),]', [{ name: 'f', arguments: { a: 1 }, floatPaths: [], text: 'f(a=1)' }]],
    [
      'calls on separate lines',
      'f(a=1)\ng(b=2.0)',
      [
        { name: 'f', arguments: { a: 1 }, floatPaths: [], text: 'f(a=1)' },
        { name: 'g', arguments: { b: 2 }, floatPaths: ['/b'], text: 'g(b=2.0)' },
      ],
    ],
    [
      'calls separated by ; and ,',
      'f(); g(), h()',
      [
        { name: 'f', arguments: {}, floatPaths: [], text: 'f()' },
        { name: 'g', arguments: {}, floatPaths: [], text: 'g()' },
        { name: 'h', arguments: {}, floatPaths: [], text: 'h()' },
      ],
    ],
    ['an empty list', '[]', []],
  ])('%s', (_name, text, calls) => {
    expect(parsePythonCalls(text)).toEqual({ ok: true, calls });
  });
});

describe('parsePythonCalls: syntax errors name the problem and the position', () => {
  it.each<[string, string, string, number]>([
    ['a positional argument', 'f(1)', 'positional argument in f(): tool calls need named arguments (name=value)', 2],
    ['a positional after keywords', 'f(a=1, "x")', 'positional argument in f(): tool calls need named arguments (name=value)', 7],
    ['a missing closing parenthesis', 'f(a=1', "expected ')' or ',' after argument 'a' of f(), found the end of the text", 5],
    ['a missing comma', 'f(a=1 b=2)', "expected ')' or ',' after argument 'a' of f(), found name b", 6],
    ['a repeated argument', 'f(a=1, a=2)', "argument 'a' is given twice in f()", 7],
    [
      'a variable as a value',
      'f(a=x)',
      "a variable name 'x' is not a literal value (use strings, numbers, True/False/None, lists, dicts)",
      4,
    ],
    [
      'a name that Object.prototype has',
      'f(a=constructor)',
      "a variable name 'constructor' is not a literal value (use strings, numbers, True/False/None, lists, dicts)",
      4,
    ],
    [
      'a __proto__ name',
      'f(a=__proto__)',
      "a variable name '__proto__' is not a literal value (use strings, numbers, True/False/None, lists, dicts)",
      4,
    ],
    ['a dict key that Object.prototype has', 'f(a={toString: 1})', 'expected a dict key (a string or a number), found name toString', 5],
    [
      'a nested call',
      'f(a=g(1))',
      "a call or expression 'g' is not a literal value (use strings, numbers, True/False/None, lists, dicts)",
      4,
    ],
    ['an unterminated string', "f(a='abc)", 'unterminated string literal', 4],
    ['a line break in a string', "f(a='ab\nc')", 'line break inside a string literal (close the quote or use \\n)', 7],
    ['a bad number', 'f(a=12abc)', 'invalid number literal "12a"', 4],
    ['a complex number', 'f(a=1j)', 'invalid number literal "1j"', 4],
    ['a bad hex escape', "f(a='\\xZZ')", 'invalid \\x escape (expected 2 hex digits)', 5],
    ['an unknown character', 'f(a=1 @ 2)', 'unexpected character "@"', 6],
    ['a minus before a string', "f(a=-'x')", "expected a number after '-', found string 'x'", 5],
    ['an unclosed list', 'f(a=[1, 2)', "expected ']' or ',' after item 1, found ')'", 9],
    ['a dict without colon', "f(a={'k' 1})", "expected '}' or ',' after item 0, found number 1", 9],
    [
      'a dict key after a colon-less key',
      "f(a={'a': 1 'b': 2})",
      "expected '}' or ',' after the value of dict key \"a\", found string 'b'",
      12,
    ],
    ['a dict without colon after the first key', "f(a={'a': 1, 'b' 2})", 'expected \':\' after dict key "b", found number 2', 17],
    ['a bad dict key', "f(a={'a': 1, [2]: 3})", "expected a dict key (a string or a number), found '['", 13],
    ['text after the calls', 'f() and more', "expected '(' after the function name 'and', found name more", 8],
    ['text after a call list', '[f()] extra', 'unexpected name extra after the calls', 6],
    ['a call list without closing bracket', '[f(), g()', "expected ']' or ',' after a call in the list, found the end of the text", 9],
    ['a name without call', 'f', "expected '(' after the function name 'f', found the end of the text", 1],
    ['a dangling dot', 'math.(n=1)', "expected a name after 'math.', found '('", 5],
    ['a missing value', 'f(a=)', "expected a value, found ')'", 4],
    ['an argument name that is not a name', 'f(=1)', "expected an argument or ')' in f(), found '='", 2],
    ['an infinite float', 'f(a=1e999)', 'number is too large for JSON', 4],
  ])('%s', (_name, text, message, position) => {
    expect(parsePythonCalls(text)).toEqual({ ok: false, message, position });
  });

  it('refuses nesting deeper than 1000 levels instead of overflowing the stack', () => {
    const deep = `f(a=${'['.repeat(5000)}${']'.repeat(5000)})`;
    expect(parsePythonCalls(deep)).toMatchObject({ ok: false, message: 'values nest deeper than 1000 levels' });
    const fine = `f(a=${'['.repeat(1000)}${']'.repeat(1000)})`;
    expect(parsePythonCalls(fine).ok).toBe(true);
  });
});
