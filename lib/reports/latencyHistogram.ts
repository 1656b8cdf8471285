import type { LatencyHistogram } from './reportModel.js';

/** Target number of equal-width bins below the cut-off. */
const TARGET_BINS = 20;
const NICE_STEPS = [1, 2, 2.5, 5, 10];

/** A "nice" bin width (1, 2, 2.5 or 5 times a power of ten) giving about TARGET_BINS bins up to `upTo` ms. */
export function niceBinWidth(upTo: number): number {
  if (!(upTo > 0) || !Number.isFinite(upTo)) return 1;
  const raw = upTo / TARGET_BINS;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = NICE_STEPS.find((s) => s * power >= raw) ?? 10;
  return Math.max(1, step * power);
}

/**
 * Fixed-width latency histogram in one pass: the width comes from the run's p99 (known from RunStats before the
 * scan), so the bins cover the body of the distribution and one open bin collects the tail.
 */
export class LatencyHistogramBuilder {
  private readonly counts: number[];
  readonly binMs: number;

  constructor(p99Ms: number | null) {
    this.binMs = niceBinWidth((p99Ms ?? 0) * 1.05);
    const closed = p99Ms && p99Ms > 0 ? Math.ceil((p99Ms * 1.05) / this.binMs) : 1;
    this.counts = new Array<number>(closed + 1).fill(0);
  }

  add(latencyMs: number): void {
    const value = Number.isFinite(latencyMs) && latencyMs > 0 ? latencyMs : 0;
    const index = Math.min(Math.floor(value / this.binMs), this.counts.length - 1);
    this.counts[index]! += 1;
  }

  result(): LatencyHistogram {
    const last = this.counts.length - 1;
    return {
      bin_ms: this.binMs,
      bins: this.counts.map((count, i) => ({ from_ms: i * this.binMs, to_ms: i === last ? null : (i + 1) * this.binMs, count })),
    };
  }
}
