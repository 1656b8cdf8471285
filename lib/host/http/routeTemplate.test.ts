import { describe, expect, it } from 'vitest';
import { compareRoutePrecedence, compileRouteTemplate } from './routeTemplate.js';

const seg = (path: string) => (path === '' ? [] : path.split('/'));

describe('compileRouteTemplate', () => {
  it.each([
    ['items/{id}', 'items/42', { id: '42' }],
    ['items/{id}', 'ITEMS/abc', { id: 'abc' }],
    ['items/{id}', 'items', undefined],
    ['items/{id}', 'items/1/2', undefined],
    ['items/{id?}', 'items', {}],
    ['items/{id?}', 'items/7', { id: '7' }],
    ['items/{id=first}', 'items', { id: 'first' }],
    ['items/{id:int}', 'items/42', { id: '42' }],
    ['items/{id:int}', 'items/-3', { id: '-3' }],
    ['items/{id:int}', 'items/4x', undefined],
    ['items/{id:int}', 'items/99999999999', undefined],
    ['items/{id:long}', 'items/99999999999', { id: '99999999999' }],
    ['items/{id:int:min(10)}', 'items/9', undefined],
    ['items/{id:int:min(10)}', 'items/10', { id: '10' }],
    ['items/{n:range(1,3)}', 'items/3', { n: '3' }],
    ['items/{n:range(1,3)}', 'items/4', undefined],
    ['items/{name:alpha}', 'items/abC', { name: 'abC' }],
    ['items/{name:alpha}', 'items/ab1', undefined],
    ['items/{flag:bool}', 'items/TRUE', { flag: 'TRUE' }],
    ['items/{g:guid}', 'items/0f8fad5b-d9cb-469f-a165-70867728950e', { g: '0f8fad5b-d9cb-469f-a165-70867728950e' }],
    ['items/{g:guid}', 'items/nope', undefined],
    ['items/{s:length(2)}', 'items/ab', { s: 'ab' }],
    ['items/{s:length(2,3)}', 'items/abcd', undefined],
    ['items/{s:maxlength(2)}', 'items/abc', undefined],
    ['items/{s:regex(^a+b$)}', 'items/aab', { s: 'aab' }],
    ['items/{s:regex(^a+b$)}', 'items/ba', undefined],
    ['items/{d:decimal}', 'items/1.5', { d: '1.5' }],
    ['files/{*rest}', 'files/a/b/c.txt', { rest: 'a/b/c.txt' }],
    ['files/{*rest}', 'files', {}],
    ['files/{**rest}', 'files/x', { rest: 'x' }],
    ['a/b', 'a/b', {}],
    ['a/b', 'a/c', undefined],
  ])('%s on %s', (template, path, expected) => {
    expect(compileRouteTemplate(template).match(seg(path))).toEqual(expected);
  });

  it.each([
    ['items/{id}/{id}', /repeats parameter/],
    ['files/{*rest}/more', /catch-all/],
    ['items/{id?}/more', /optional parameter/],
    ['items/{id:unknown}', /unknown route constraint/],
    ['items/x{id}', /not a literal or a single/],
    ['items//x', /empty segment/],
    ['items/{n:min(a)}', /numeric argument/],
  ])('rejects %s', (template, message) => {
    expect(() => compileRouteTemplate(template)).toThrow(message);
  });

  it('orders literals before constrained, plain, optional and catch-all parameters', () => {
    const templates = ['items/{*rest}', 'items/{id?}', 'items/{id}', 'items/{id:int}', 'items/new'].map(compileRouteTemplate);
    expect([...templates].sort(compareRoutePrecedence).map((t) => t.template)).toEqual([
      'items/new',
      'items/{id:int}',
      'items/{id}',
      'items/{id?}',
      'items/{*rest}',
    ]);
  });
});
