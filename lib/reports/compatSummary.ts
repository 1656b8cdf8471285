import { z } from 'zod';
import type { Scorecard } from '../domain/index.js';

/**
 * A compatibility-mode run (`compat: "bfcl"`) reconciled with the leaderboard: how many scored cases carry BFCL's
 * verdict, how many of those verdicts differ from the platform's own (either way), and how many passed only because
 * BFCL's greedy parallel matcher is not copied (`greedy_only_failure`: BFCL's leaderboard fails them).
 */
export const CompatSummarySchema = z.object({
  mode: z.string(),
  /** scored cases with a compatibility verdict (cases without BFCL data keep the default verdict) */
  cases: z.number().int(),
  passed: z.number().int(),
  /** BFCL passes, the default mode fails */
  passed_only_by_compat: z.number().int(),
  /** the default mode passes, BFCL fails */
  failed_only_by_compat: z.number().int(),
  /** passed here, failed on BFCL's leaderboard by its greedy matcher */
  greedy_only_failures: z.number().int(),
  /** the leaderboard's own pass count on these cases: passed minus the greedy-only ones */
  leaderboard_passed: z.number().int(),
});
export type CompatSummary = z.infer<typeof CompatSummarySchema>;

export class CompatSummaryBuilder {
  #summary: CompatSummary;
  constructor(mode: string) {
    this.#summary = {
      mode,
      cases: 0,
      passed: 0,
      passed_only_by_compat: 0,
      failed_only_by_compat: 0,
      greedy_only_failures: 0,
      leaderboard_passed: 0,
    };
  }

  add(card: Pick<Scorecard, 'compat'>): void {
    const verdict = card.compat;
    if (!verdict) return;
    const s = this.#summary;
    s.cases += 1;
    if (verdict.passed) s.passed += 1;
    if (verdict.passed && !verdict.default_passed) s.passed_only_by_compat += 1;
    if (!verdict.passed && verdict.default_passed) s.failed_only_by_compat += 1;
    if (verdict.greedy_only_failure) s.greedy_only_failures += 1;
  }

  result(): CompatSummary {
    return { ...this.#summary, leaderboard_passed: this.#summary.passed - this.#summary.greedy_only_failures };
  }
}

/** The report's lines on a compatibility-mode run. */
export function compatMarkdown(c: CompatSummary): string[] {
  return [
    `### Compatibility mode: ${c.mode}`,
    '',
    `${c.passed} of ${c.cases} cases pass under ${c.mode.toUpperCase()}'s rules; the default mode would decide ${c.passed_only_by_compat + c.failed_only_by_compat} of them otherwise ` +
      `(${c.passed_only_by_compat} passed only here, ${c.failed_only_by_compat} failed only here). ` +
      `${c.greedy_only_failures} passed although ${c.mode.toUpperCase()}'s greedy parallel matcher fails them: the leaderboard would count ${c.leaderboard_passed} of ${c.cases}.`,
  ];
}
