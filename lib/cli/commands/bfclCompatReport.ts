import type { Scorecard, TestCase } from '../../domain/index.js';
import { compatVerdictOf } from '../../evaluation/index.js';

/** One case whose default and BFCL-compatible verdicts differ. */
export interface VerdictGap {
  test_case_id: string;
  /** e.g. `default fails (enum_violation), BFCL passes` */
  kind: string;
  default_passed: boolean;
  bfcl_passed: boolean;
  /** the rule that decided each side: our stage and error code, BFCL's error_type */
  default_rule: string;
  bfcl_rule: string;
  message: string;
}

export interface CompatGapSummary {
  cases: number;
  differ: number;
  by_kind: Record<string, number>;
  /** parallel cases BFCL's greedy matcher fails although a one-to-one pairing passes (compat passes them) */
  greedy_only_failures: number;
  gaps?: VerdictGap[];
}

/**
 * Default versus BFCL-compatible verdicts over an `evalp evaluate --format bfcl` run: how many differ, by kind, and
 * (for `--explain`) each case with the rule that decided each side. Takes the scorecards as scored (with or without
 * `--compat bfcl`): the other verdict is computed from the same card, so a case is scored once.
 */
export class CompatGapAccumulator {
  private cases = 0;
  private greedy = 0;
  private readonly byKind = new Map<string, number>();
  private readonly gaps: VerdictGap[] = [];

  add(card: Scorecard, testCase: TestCase): void {
    const withCompat = card.compat ? card : compatVerdictOf(card, testCase, 'bfcl');
    const compat = withCompat.compat;
    if (!compat) return;
    this.cases++;
    if (compat.greedy_only_failure) this.greedy++;
    if (compat.passed === compat.default_passed) return;
    const defaultRule = compat.default_passed ? 'passed' : (compat.default_rule ?? 'failed');
    const kind = compat.passed ? `default fails (${defaultRule}), BFCL passes` : `BFCL fails (${compat.rule}), default passes`;
    this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1);
    this.gaps.push({
      test_case_id: card.test_case_id,
      kind,
      default_passed: compat.default_passed,
      bfcl_passed: compat.passed,
      default_rule: defaultRule,
      bfcl_rule: compat.rule,
      message: compat.passed ? (compat.default_message ?? '') : compat.message,
    });
  }

  summary(explain: boolean): CompatGapSummary {
    const by_kind = Object.fromEntries([...this.byKind].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
    return {
      cases: this.cases,
      differ: this.gaps.length,
      by_kind,
      greedy_only_failures: this.greedy,
      ...(explain ? { gaps: this.gaps } : {}),
    };
  }
}

/** The text block `evalp evaluate --format bfcl` prints. */
export function formatCompatGaps(s: CompatGapSummary, compatOn: boolean): string {
  const lines = [
    `BFCL compatibility: ${s.differ} of ${s.cases} case(s) get another verdict from BFCL's AST checker (compat "bfcl") than from the default mode` +
      (compatOn ? ' (scorecards carry the compat verdict)' : ' (pass --compat bfcl to score as BFCL)'),
  ];
  for (const [kind, n] of Object.entries(s.by_kind)) lines.push(`  ${String(n).padStart(5)}  ${kind}`);
  if (s.greedy_only_failures > 0)
    lines.push(
      `  ${s.greedy_only_failures} parallel case(s) fail BFCL's greedy call matching although a one-to-one pairing passes: compat passes them (the leaderboard fails them)`,
    );
  if (s.gaps) {
    lines.push('Per case (default | BFCL):');
    for (const g of s.gaps)
      lines.push(
        `  ${g.test_case_id}  ${g.default_passed ? 'pass' : `fail ${g.default_rule}`} | ${g.bfcl_passed ? 'pass' : `fail ${g.bfcl_rule}`}${g.message ? `: ${g.message}` : ''}`,
      );
  } else if (s.differ > 0) lines.push('  (--explain lists them per case with the deciding rule)');
  return lines.join('\n');
}
