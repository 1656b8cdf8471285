import type { Alert } from '../domain/index.js';

/** One metric of a run next to its baseline, with the p-value of a test of "no change". */
export interface MetricEvidence {
  /** baseline value: pass rate in [0, 1], milliseconds, or USD */
  previous: number;
  current: number;
  /** two-sided */
  p_value: number;
  /** the test behind p_value, e.g. "exact McNemar" */
  test: string;
}

/** One category's paired pass rates with its Holm-adjusted McNemar p-value (adjusted across the categories). */
export interface CategoryEvidence {
  category: string;
  previous: number;
  current: number;
  p_value_adjusted: number;
}

/** One rubric criterion's paired mean scores (1-5) with its p-value, Holm-adjusted across the criteria. */
export interface CriterionEvidence {
  criterion: string;
  previous: number;
  current: number;
  /** cases scored on the criterion in both runs */
  paired_cases: number;
  p_value_adjusted: number;
}

/**
 * What detection needs to know about a run and its baseline, over the cases both scored. A metric is null when
 * it cannot be compared (no paired cases, a baseline value of 0).
 */
export interface RegressionEvidence {
  paired_cases: number;
  accuracy: MetricEvidence | null;
  categories: CategoryEvidence[];
  latency_p95: MetricEvidence | null;
  cost_per_case: MetricEvidence | null;
  /** per rubric criterion both runs were judged on (sorted by name); empty when either side has no criterion scores */
  criteria?: CriterionEvidence[];
}

/** An alert as detection decides it, before it is stored (ids, runs, times and status are added then). */
export type AlertCandidate = Pick<
  Alert,
  | 'metric'
  | 'criterion'
  | 'category'
  | 'severity'
  | 'previous'
  | 'current'
  | 'change'
  | 'change_unit'
  | 'threshold'
  | 'p_value'
  | 'test'
  | 'affected_categories'
  | 'message'
  | 'paired_cases'
>;
