import type { EfficiencyStats } from '../domain/index.js';

const num = (x: number | null, digits = 1): string => (x === null ? '-' : x.toFixed(digits));

/**
 * A run's efficiency as one sentence, e.g. `Efficiency 0.917 over 12 cases: 26 calls made for 24 needed, 2 redundant
 * (in 1 case); 2.3 model turns and 1840 tokens per case`.
 */
export function efficiencyLine(e: EfficiencyStats): string {
  const cases = `${e.cases} case${e.cases === 1 ? '' : 's'}`;
  const redundant =
    e.redundant_calls === 0
      ? 'no redundant call'
      : `${e.redundant_calls} redundant (in ${e.cases_with_redundant_calls} case${e.cases_with_redundant_calls === 1 ? '' : 's'})`;
  return `Efficiency ${num(e.mean_score, 3)} over ${cases}: ${e.calls_made} calls made for ${e.calls_needed} needed, ${redundant}; ${num(e.mean_model_turns)} model turns and ${num(e.mean_tokens, 0)} tokens per case`;
}
