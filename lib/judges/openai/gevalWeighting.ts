/** One token of a completion with its log-probability and the alternatives the API returned. */
export interface TokenLogprob {
  token: string;
  logprob: number;
  top_logprobs: Array<{ token: string; logprob: number }>;
}

export interface WeightedScore {
  /** sum over k of k * p(k), the p(k) renormalised over the scores 1-5 found among the alternatives */
  score: number;
  /** p(1) .. p(5), renormalised */
  probabilities: number[];
  /** the probability mass the alternatives put on the scores 1-5 before renormalising (how sure the model was) */
  mass: number;
}

/**
 * G-Eval's probability-weighted score (Liu et al. 2023, eq. 1): the expected value of the 1-5 score under the
 * model's token probabilities. `content` is the reply (JSON ending in `"score": k`); the token that carries the
 * digit is found by its character offset, and each alternative at that position that reads as a score 1-5 (same
 * text before the digit, no further digit after it) adds exp(logprob) to that score. Null when the reply has no
 * score or no usable probabilities (the caller then uses the integer).
 */
export function weightedScore(content: string, tokens: readonly TokenLogprob[] | null | undefined): WeightedScore | null {
  if (!tokens?.length) return null;
  const matches = [...content.matchAll(/"score"\s*:\s*([1-5])(?![0-9])/g)];
  const last = matches.at(-1);
  if (!last || last.index === undefined) return null;
  const digitAt = last.index + last[0].length - 1;
  let offset = 0;
  for (const t of tokens) {
    const end = offset + t.token.length;
    if (digitAt >= offset && digitAt < end) {
      const prefix = content.slice(offset, digitAt);
      const mass = [0, 0, 0, 0, 0];
      const seen = new Set<string>();
      for (const alt of t.top_logprobs.length ? t.top_logprobs : [{ token: t.token, logprob: t.logprob }]) {
        if (seen.has(alt.token) || !alt.token.startsWith(prefix)) continue;
        seen.add(alt.token);
        const m = /^([1-5])(?![0-9])/.exec(alt.token.slice(prefix.length));
        if (m) mass[Number(m[1]) - 1]! += Math.exp(alt.logprob);
      }
      const total = mass.reduce((a, b) => a + b, 0);
      if (!(total > 0)) return null;
      const probabilities = mass.map((p) => p / total);
      return { score: probabilities.reduce((s, p, i) => s + p * (i + 1), 0), probabilities, mass: Math.min(1, total) };
    }
    offset = end;
  }
  return null;
}
