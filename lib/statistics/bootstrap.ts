import { assertConfidence, DEFAULT_CONFIDENCE, type EstimateInterval } from './interval.js';
import { quantileOfSorted } from './percentile.js';

export interface BootstrapOptions {
  /** resamples; default 2000, lowered for very large n so that iterations * n stays under maxDraws */
  iterations?: number;
  confidence?: number;
  /** the PRNG seed (required: the same inputs and seed always give the same interval) */
  seed: number;
  /** cap on iterations * n (default 1e8, about one second); iterations never go below 200 */
  maxDraws?: number;
}

export const DEFAULT_BOOTSTRAP_ITERATIONS = 2000;

/**
 * Paired bootstrap percentile interval for mean(b) - mean(a): resamples the pairs (i, i) with replacement, so
 * the correlation between the runs on the same case is kept (Efron and Tibshirani 1993, ch. 13). Seeded
 * mulberry32, deterministic for a seed. Works on the per-case differences only (one Float64Array of n).
 */
export function pairedBootstrapMeanDiff(
  a: Float64Array | readonly number[],
  b: Float64Array | readonly number[],
  options: BootstrapOptions,
): EstimateInterval {
  if (a.length !== b.length) throw new RangeError(`paired samples need equal lengths, got ${a.length} and ${b.length}`);
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  assertConfidence(confidence);
  const n = a.length;
  if (n === 0) return { estimate: Number.NaN, lower: Number.NaN, upper: Number.NaN };
  const diff = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    diff[i] = (b[i] as number) - (a[i] as number);
    total += diff[i] as number;
  }
  const estimate = total / n;
  const maxDraws = options.maxDraws ?? 1e8;
  const wanted = options.iterations ?? DEFAULT_BOOTSTRAP_ITERATIONS;
  const iterations = Math.max(Math.min(wanted, 200), Math.min(wanted, Math.floor(maxDraws / n)));
  const means = new Float64Array(iterations);
  // mulberry32 inlined (the same sequence as createRandom(seed).next()): this loop draws up to 1e8 indices
  let state = options.seed >>> 0;
  for (let r = 0; r < iterations; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      sum += diff[Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)] as number;
    }
    means[r] = sum / n;
  }
  means.sort();
  const tail = (1 - confidence) / 2;
  return { estimate, lower: quantileOfSorted(means, tail), upper: quantileOfSorted(means, 1 - tail) };
}
