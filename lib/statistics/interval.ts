/** A point estimate with a two-sided interval. */
export interface EstimateInterval {
  estimate: number;
  lower: number;
  upper: number;
}

export const DEFAULT_CONFIDENCE = 0.95;

export function assertConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
}
