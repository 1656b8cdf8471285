import type { ExpectedToolCall } from '../../domain/index.js';
import type { CallComparison, DependencyViolation } from './callComparison.js';

/** An expected call made before a call whose result it uses. */
/**
 * `call_order: 'dependency'` on a comparison made by content (as for `any`): each paired call must come after the
 * paired calls it `depends_on`. A call made too early loses its credit (so `passed` ⇔ score 1 still holds), the
 * comparison fails with `outOfOrder`, and the violations are listed for the message. A dependency on a call that was
 * not made is not a violation here: the missing call already fails the case.
 */
export function applyDependencyOrder(
  expected: readonly ExpectedToolCall[],
  actualCount: number,
  comparison: CallComparison,
): CallComparison {
  const columnOf = new Map<number, number>();
  for (const pair of comparison.assignment) columnOf.set(pair.expected_index, pair.actual_index);
  const violations: DependencyViolation[] = [];
  expected.forEach((call, e) => {
    const at = columnOf.get(e);
    if (at === undefined) return;
    for (const d of call.depends_on ?? []) {
      const before = columnOf.get(d);
      if (before !== undefined && before > at) violations.push({ call: e, needs: d });
    }
  });
  if (violations.length === 0) return comparison;
  const early = new Set(violations.map((v) => v.call));
  let truePositive = 0;
  for (const diff of comparison.calls) {
    if (diff.expected_index !== null && diff.actual_index !== null && !early.has(diff.expected_index)) truePositive += diff.argument_score;
  }
  const precision = actualCount === 0 ? 0 : truePositive / actualCount;
  const recall = expected.length === 0 ? 1 : truePositive / expected.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { ...comparison, passed: false, precision, recall, f1, outOfOrder: true, dependencyViolations: violations };
}
