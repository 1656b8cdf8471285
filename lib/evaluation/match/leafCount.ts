import type { ExpectedValue } from '../../domain/expected.js';
import { isMatcher } from './isMatcher.js';

/**
 * How many leaf checks an expected value stands for: 1 per scalar, the sum over an object's or array's children
 * (1 for an empty one), and for a matcher the leaves of its `$value` (or first `$one_of` alternative), else 1.
 * Used to weigh a value that is missing or of the wrong type as that many failed checks.
 */
export function leafCount(value: ExpectedValue): number {
  if (value === null || typeof value !== 'object') return 1;
  let sum = 0;
  if (Array.isArray(value)) {
    for (const item of value) sum += leafCount(item);
    return sum === 0 ? 1 : sum;
  }
  if (isMatcher(value)) {
    if (value.$value !== undefined) return leafCount(value.$value);
    const first = value.$one_of?.[0];
    return first === undefined ? 1 : leafCount(first);
  }
  for (const key in value) sum += leafCount((value as Record<string, ExpectedValue>)[key]!);
  return sum === 0 ? 1 : sum;
}
