import { describe, expect, it } from 'vitest';
import type { FunctionRegistration } from '../registration.js';
import { createRouter, splitPath, toHttpRoute } from './router.js';

function http(name: string, trigger: Record<string, unknown>): FunctionRegistration {
  return {
    name,
    kind: 'httpTrigger',
    trigger: { type: 'httpTrigger', direction: 'in', name: 'req', ...trigger },
    metadata: { name, bindings: {} },
    callback: () => undefined,
  };
}

const routes = [
  http('getItem', { route: 'items/{id}', methods: ['GET'] }),
  http('putItem', { route: 'items/{id:int}', methods: ['PUT'], authLevel: 'function' }),
  http('newItem', { route: 'items/new', methods: ['GET'] }),
  http('health', { methods: ['GET', 'POST'] }),
  http('anyMethod', { route: 'any' }),
].map(toHttpRoute);
const route = createRouter(routes);

describe('createRouter', () => {
  it.each([
    ['GET', 'items/5', { kind: 'match', name: 'getItem', params: { id: '5' } }],
    ['get', 'items/5', { kind: 'match', name: 'getItem', params: { id: '5' } }],
    ['PUT', 'items/5', { kind: 'match', name: 'putItem', params: { id: '5' } }],
    ['GET', 'items/new', { kind: 'match', name: 'newItem', params: {} }],
    ['GET', 'health', { kind: 'match', name: 'health', params: {} }],
    ['DELETE', 'any', { kind: 'match', name: 'anyMethod', params: {} }],
    ['PUT', 'items/abc', { kind: 'methodNotAllowed', allow: ['GET'] }],
    ['POST', 'items/5', { kind: 'methodNotAllowed', allow: ['GET', 'PUT'] }],
    ['GET', 'nothing/here', { kind: 'notFound' }],
  ])('%s %s', (method, path, expected) => {
    const result = route(method, splitPath(path) ?? []);
    const simplified =
      result.kind === 'match' ? { kind: result.kind, name: result.route.registration.name, params: result.params } : result;
    expect(simplified).toEqual(expected);
  });

  it('defaults the route to the function name and the auth level to anonymous', () => {
    const [health] = routes.filter((r) => r.registration.name === 'health');
    expect({ template: health?.template.template, auth: health?.authLevel }).toEqual({ template: 'health', auth: 'anonymous' });
  });

  it.each([
    [{ authLevel: 'system' }, /authLevel "system"/],
    [{ methods: 'GET' }, /methods must be an array/],
    [{ route: 'a/{*x}/b' }, /function "bad": route "a\/\{\*x\}\/b"/],
  ])('rejects bad trigger %j', (trigger, message) => {
    expect(() => toHttpRoute(http('bad', trigger))).toThrow(message);
  });
});

describe('splitPath', () => {
  it.each([
    ['/a/b/', ['a', 'b']],
    ['', []],
    ['a%20b/c%2Fd', ['a b', 'c/d']],
    ['bad%zz', undefined],
  ])('%s', (path, expected) => {
    expect(splitPath(path)).toEqual(expected);
  });
});
