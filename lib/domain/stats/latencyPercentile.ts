import { LogHistogram } from './logHistogram.js';

/**
 * The platform's one definition of a latency percentile (lib/domain/stats/README.md, "Latency percentiles"): p_q of a
 * run is the lower-rank order statistic sorted[floor(q·(n − 1))] of its scored latencies (every scored trial),
 * reported at the resolution of the log histogram the live statistics fold keeps (the bucket's value, within 1%).
 * Run statistics, comparisons, reports, trends, alerts and the dashboard all report this number, so a run shows the
 * same p95 wherever it appears.
 */
export function latencyHistogramOf(values: Iterable<number>): LogHistogram {
  const histogram = LogHistogram.empty();
  for (const value of values) histogram.add(value);
  return histogram;
}

/** p_q of the values (see `latencyHistogramOf`), or null when there are none. */
export function latencyPercentile(values: Iterable<number>, q: number): number | null {
  return latencyHistogramOf(values).quantile(q);
}
