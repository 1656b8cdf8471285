import type { Interval, LogHistogram } from '../domain/index.js';
import { orderStatisticRanks } from '../statistics/index.js';

/**
 * Latency percentile q of a run with its distribution-free order-statistic interval, read from the run's latency
 * histogram: the estimate is the platform's one definition (lib/domain/stats `latencyPercentile`: the bucket value
 * of sorted[floor(q·(n − 1))], the number the run statistics show) and the bounds are the order statistics of
 * lib/statistics `orderStatisticRanks` at the same resolution, so lower <= estimate <= upper. Null when empty.
 */
export function latencyPercentileInterval(histogram: LogHistogram, q: number, confidence: number): Interval | null {
  const n = histogram.count();
  if (n === 0) return null;
  const ranks = orderStatisticRanks(n, q, confidence);
  const [estimate, lower, upper] = histogram.valuesAtRanks([Math.floor(q * (n - 1)), ranks.lower, ranks.upper]) as [number, number, number];
  return { estimate, lower, upper };
}
