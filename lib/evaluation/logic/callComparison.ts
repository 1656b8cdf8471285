import type { CallDiff } from '../../domain/index.js';

/** Which actual call was assigned to which expected call. */
export interface CallPair {
  expected_index: number;
  actual_index: number;
}

export interface DependencyViolation {
  /** the expected call that came too early */
  call: number;
  /** the expected call it depends on, which was made after it */
  needs: number;
}

export interface CallComparison {
  /** every expected call matched with argument score 1, no extra call, and (strict) in order */
  passed: boolean;
  /** soft true positives (sum of matched argument scores) / actual calls */
  precision: number;
  /** soft true positives / expected calls */
  recall: number;
  f1: number;
  /** one entry per expected call (in order), then one per unassigned actual call */
  calls: CallDiff[];
  assignment: CallPair[];
  /**
   * strict order only: the calls were not made in the required order. The diff then pairs calls by content (as
   * for `any`), while the metrics count only the pairs that keep the order.
   */
  outOfOrder: boolean;
  /** dependency order only: the calls made before a call whose result they use */
  dependencyViolations?: DependencyViolation[];
}
