import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bodyOf, keysOf, parseBicep, textOf, tokenize, valueAt, type Declaration } from './bicepText.js';

const SAMPLE = `
// a comment with { braces } and 'quotes'
targetScope = 'subscription'

@description('the name; it has a quote: \\'x\\' and \${braces}')
@allowed(['a', 'b'])
param name string = 'a'
param count int
/* a block
   comment */
var settings = {
  plain: 'v'
  'quoted-key': 'x\${name}y'
  nested: { a: 1, b: [1, 2] }
  expr: empty(name) ? {} : { k: name }
  multi: '''line one
line two'''
}

resource parentRes 'Microsoft.Web/sites@2024-04-01' = {
  name: name
  properties: {
    interpolated: '\${name}-\${toLower('X')}'
  }
  resource child 'config' = {
    name: 'appsettings'
    properties: settings
  }
}

resource many 'Microsoft.ServiceBus/namespaces/queues@2022-10-01-preview' = [for q in items: {
  name: q.name
}]

module mod 'modules/x.bicep' = if (count > 0) {
  name: 'm'
  params: { a: 1, b: name }
}

func twice(x int) int => x * 2

output url string = 'https://\${parentRes.properties.defaultHostName}'
`;

describe('tokenize', () => {
  it.each([
    ["'it\\'s'", [['string', "it\\'s"]]],
    ["'a\${b}c'", [['string', 'a${b}c']]],
    ["'\${f('x')}'", [['string', "${f('x')}"]]],
    ["'''multi\nline'''", [['string', 'multi\nline']]],
    [
      'a.b[0] == 1 // tail',
      [
        ['ident', 'a'],
        ['punct', '.'],
        ['ident', 'b'],
        ['punct', '['],
        ['number', '0'],
        ['punct', ']'],
        ['punct', '=='],
        ['number', '1'],
      ],
    ],
    [
      'x => { y: x }',
      [
        ['ident', 'x'],
        ['punct', '=>'],
        ['punct', '{'],
        ['ident', 'y'],
        ['punct', ':'],
        ['ident', 'x'],
        ['punct', '}'],
      ],
    ],
  ])('%s', (source, expected) => {
    expect(tokenize(source).map((t) => [t.kind, t.text])).toEqual(expected);
  });

  it.each([
    ["'open", 'unterminated string'],
    ['/* open', 'unterminated comment'],
    ["'''open", 'unterminated multi-line string'],
    ['a ~ b', 'unexpected character'],
  ])('rejects %s', (source, message) => {
    expect(() => tokenize(source)).toThrow(message);
  });

  it('counts lines through comments and multi-line strings', () => {
    expect(tokenize("/* a\nb */\n'''x\ny'''\nz").at(-1)).toEqual({ kind: 'ident', text: 'z', line: 5 });
  });
});

describe('parseBicep', () => {
  const declarations = parseBicep(SAMPLE);
  const find = (keyword: Declaration['keyword'], name: string) => declarations.find((d) => d.keyword === keyword && d.name === name);

  it('reads every declaration, nested resources with their parent', () => {
    expect(declarations.map((d) => [d.keyword, d.name, d.type ?? null, d.parent ?? null])).toEqual([
      ['targetScope', 'targetScope', null, null],
      ['param', 'name', 'string', null],
      ['param', 'count', 'int', null],
      ['var', 'settings', null, null],
      ['resource', 'child', 'config', 'parentRes'],
      ['resource', 'parentRes', 'Microsoft.Web/sites@2024-04-01', null],
      ['resource', 'many', 'Microsoft.ServiceBus/namespaces/queues@2022-10-01-preview', null],
      ['module', 'mod', 'modules/x.bicep', null],
      ['func', 'twice', null, null],
      ['output', 'url', 'string', null],
    ]);
  });

  it('reads objects, arrays, loops, conditions and keeps other expressions as text', () => {
    expect(textOf(find('param', 'name')?.value)).toBe("'a'");
    expect(find('param', 'count')?.value).toBeUndefined();
    const settings = find('var', 'settings')?.value;
    expect(keysOf(settings)).toEqual(['plain', 'quoted-key', 'nested', 'expr', 'multi']);
    expect(textOf(valueAt(settings, 'quoted-key'))).toBe("'x${name}y'");
    expect(textOf(valueAt(settings, 'nested'))).toBe('{ a: 1, b: [1, 2] }');
    expect(textOf(valueAt(settings, 'expr'))).toBe('empty(name) ? {} : { k: name }');
    expect(textOf(valueAt(settings, 'multi'))).toBe("'line one\nline two'");
    expect(find('resource', 'many')?.value).toMatchObject({ kind: 'for', header: 'q in items' });
    expect(textOf(valueAt(find('resource', 'many')?.value, 'name'))).toBe('q.name');
    expect(find('module', 'mod')?.value).toMatchObject({ kind: 'if', condition: 'count > 0' });
    expect(keysOf(valueAt(find('module', 'mod')?.value, 'params'))).toEqual(['a', 'b']);
    expect(textOf(valueAt(find('resource', 'parentRes')?.value, 'properties.interpolated'))).toBe("'${name}-${toLower('X')}'");
    expect(keysOf(bodyOf(find('resource', 'child')?.value))).toEqual(['name', 'properties']);
  });

  it.each([
    ['a stray token at top level', 'foo = 1', 'unexpected "foo" at top level'],
    ['an object without a closing brace', 'var x = {\n a: 1\n', 'unterminated object'],
    ['a missing colon', 'var x = {\n a 1\n}', 'expected ":"'],
  ])('reports %s with its line', (_name, source, message) => {
    expect(() => parseBicep(source)).toThrow(message);
  });

  it('reads every file of infra/', () => {
    const dir = new URL('.', import.meta.url).pathname;
    const files = [
      ...readdirSync(dir).filter((f) => f.endsWith('.bicep')),
      ...readdirSync(join(dir, 'modules'))
        .filter((f) => f.endsWith('.bicep'))
        .map((f) => `modules/${f}`),
    ];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(parseBicep(readFileSync(join(dir, file), 'utf8')).length, file).toBeGreaterThan(0);
  });
});
