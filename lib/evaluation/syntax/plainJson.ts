import { escapePointerSegment } from '../../domain/index.js';
import { MAX_NESTING } from './nesting.js';

/**
 * Why a JavaScript value is not plain JSON data, or null when it is. Arguments that arrive as objects (not
 * text) are checked with this, so a ToolCall never carries functions, NaN, class instances, `undefined` or
 * shared/cyclic references, nor nests deeper than MAX_NESTING. Iterative, so cycles and depth are safe.
 * Example result: `/when is a Date`.
 */
export function findNonJsonValue(root: unknown): string | null {
  const seen = new Set<object>();
  const stack: [unknown, string, number][] = [[root, '', 0]];
  while (stack.length > 0) {
    const [value, pointer, depth] = stack.pop() as [unknown, string, number];
    const where = pointer === '' ? 'the value' : pointer;
    switch (typeof value) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (!Number.isFinite(value)) return `${where} is ${value}, which JSON cannot represent`;
        continue;
      case 'object': {
        if (value === null) continue;
        if (seen.has(value)) return `${where} repeats an object seen before (a shared or cyclic reference)`;
        if (depth >= MAX_NESTING) return `${where.slice(0, 60)}… nests deeper than ${MAX_NESTING} levels`;
        seen.add(value);
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) stack.push([value[i], `${pointer}/${i}`, depth + 1]);
          continue;
        }
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) {
          const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
          return `${where} is ${typeof name === 'string' && name ? `a ${name}` : 'not a plain object'}`;
        }
        for (const key of Object.keys(value)) {
          stack.push([(value as Record<string, unknown>)[key], `${pointer}/${escapePointerSegment(key)}`, depth + 1]);
        }
        continue;
      }
      default:
        return `${where} is ${value === undefined ? 'undefined' : `a ${typeof value}`}`;
    }
  }
  return null;
}

/** Assign an own enumerable property, even `__proto__`, without touching the prototype (as JSON.parse does). */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
