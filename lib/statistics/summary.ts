/** The sufficient summary of a sample for t-tests and mean intervals. */
export interface SampleSummary {
  n: number;
  mean: number;
  /** unbiased sample variance (n - 1 denominator); 0 for n < 2 */
  variance: number;
}

/** One pass, numerically stable (Welford). */
export function summarize(values: Float64Array | readonly number[]): SampleSummary {
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    n++;
    const delta = x - mean;
    mean += delta / n;
    m2 += delta * (x - mean);
  }
  return { n, mean: n === 0 ? Number.NaN : mean, variance: n < 2 ? 0 : m2 / (n - 1) };
}

/** Welford accumulator for streaming (add one value at a time). */
export class RunningSummary {
  private count = 0;
  private runningMean = 0;
  private m2 = 0;

  add(x: number): void {
    this.count++;
    const delta = x - this.runningMean;
    this.runningMean += delta / this.count;
    this.m2 += delta * (x - this.runningMean);
  }

  get summary(): SampleSummary {
    const n = this.count;
    return { n, mean: n === 0 ? Number.NaN : this.runningMean, variance: n < 2 ? 0 : this.m2 / (n - 1) };
  }
}
