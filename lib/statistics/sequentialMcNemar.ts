import jStat from 'jstat';

export interface SequentialMcNemarResult {
  /** discordant pairs that passed under control only */
  b: number;
  /** discordant pairs that passed under the variant only */
  c: number;
  /** log of the mixture likelihood ratio Lambda at this look */
  log_likelihood_ratio: number;
  /** always-valid p-value: min(1, previous p, 1 / Lambda); previous p carries the running minimum over earlier looks */
  p_value: number;
  /** Lambda >= 1 / alpha at this or an earlier look (so p_value <= alpha) */
  reject: boolean;
}

/**
 * Always-valid sequential test of "no change" for paired pass/fail outcomes: a mixture sequential probability ratio
 * test (mSPRT; Robbins 1970, Johari et al. 2017 "Peeking at A/B tests") on the discordant pairs. Under H0 each
 * discordant pair favours the variant with probability 1/2, so with a Beta(prior, prior) mixture over that
 * probability the ratio Lambda_n = B(c + prior, b + prior) / B(prior, prior) / 2^-(b + c) is a nonnegative
 * martingale with mean 1, and Ville's inequality gives P(sup_n Lambda_n >= 1 / alpha) <= alpha: the test may be
 * looked at after every pair and stopped at any look without inflating the false-positive rate. Two-sided (the
 * mixture is symmetric). Counts must only grow between looks (pass the previous look's p-value as `previousP`).
 */
export function sequentialMcNemar(
  b: number,
  c: number,
  options: { alpha?: number; prior?: number; previousP?: number } = {},
): SequentialMcNemarResult {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new RangeError(`need counts >= 0, got b=${b} c=${c}`);
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const prior = options.prior ?? 1;
  if (!(prior > 0)) throw new RangeError(`prior must be > 0, got ${prior}`);
  const previous = options.previousP ?? 1;
  if (!(previous > 0 && previous <= 1)) throw new RangeError(`previousP must be in (0, 1], got ${previous}`);
  const log = jStat.betaln(c + prior, b + prior) - jStat.betaln(prior, prior) + (b + c) * Math.LN2;
  // floored at the smallest double so a stored running minimum stays a valid previousP
  const p_value = Math.max(Number.MIN_VALUE, Math.min(1, previous, Math.exp(-log)));
  return { b, c, log_likelihood_ratio: log, p_value, reject: p_value <= alpha };
}
