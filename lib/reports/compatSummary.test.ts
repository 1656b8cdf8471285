import { describe, expect, it } from 'vitest';
import type { CompatVerdict } from '../domain/index.js';
import { CompatSummaryBuilder, compatMarkdown } from './compatSummary.js';

const verdict = (passed: boolean, default_passed: boolean, greedy_only_failure = false): { compat: CompatVerdict } => ({
  compat: {
    mode: 'bfcl',
    passed,
    rule: passed ? 'valid' : 'value_error',
    message: '',
    default_passed,
    ...(greedy_only_failure ? { greedy_only_failure } : {}),
  },
});

describe('CompatSummaryBuilder', () => {
  it('counts verdicts that differ from the default mode either way, and the greedy-only passes the leaderboard fails', () => {
    const b = new CompatSummaryBuilder('bfcl');
    for (const card of [
      verdict(true, true),
      verdict(true, true, true),
      verdict(true, false), // BFCL accepts what the default fails (e.g. an explicit "" for an optional parameter)
      verdict(true, false),
      verdict(false, true), // the default accepts what BFCL fails
      verdict(false, false),
      {}, // a case without BFCL data keeps the default verdict and is not counted
    ])
      b.add(card);
    const summary = b.result();
    expect(summary).toEqual({
      mode: 'bfcl',
      cases: 6,
      passed: 4,
      passed_only_by_compat: 2,
      failed_only_by_compat: 1,
      greedy_only_failures: 1,
      leaderboard_passed: 3,
    });
    expect(compatMarkdown(summary).join('\n')).toContain(
      "4 of 6 cases pass under BFCL's rules; the default mode would decide 3 of them otherwise (2 passed only here, 1 failed only here). 1 passed although BFCL's greedy parallel matcher fails them: the leaderboard would count 3 of 6.",
    );
  });
});
