import { STAGE_NAMES, type Scorecard, type StageName } from '../../domain/index.js';

export interface StagePassRate {
  /** cases where the stage ran (passed, failed or errored) */
  ran: number;
  passed: number;
  /** passed / ran, or null when the stage never ran */
  pass_rate: number | null;
}

export interface EvaluationSummary {
  cases: number;
  passed: number;
  failed: number;
  pass_rate: number | null;
  mean_score: number | null;
  stages: Record<StageName, StagePassRate>;
  /** most frequent error codes of failing cases, descending */
  top_error_codes: Array<{ error_code: string; count: number }>;
}

/** Folds scorecards into a summary in O(1) memory per scorecard (counters only). */
export class SummaryAccumulator {
  private cases = 0;
  private passed = 0;
  private scoreSum = 0;
  private readonly stageRan: Record<StageName, number> = { syntax: 0, logic: 0, execution: 0, semantics: 0 };
  private readonly stagePassed: Record<StageName, number> = { syntax: 0, logic: 0, execution: 0, semantics: 0 };
  private readonly errorCodes = new Map<string, number>();

  add(card: Scorecard): void {
    this.cases++;
    if (card.overall_passed) this.passed++;
    this.scoreSum += card.overall_score;
    for (const name of STAGE_NAMES) {
      const status = card.stages[name].status;
      if (status === 'skipped') continue;
      this.stageRan[name]++;
      if (status === 'passed') this.stagePassed[name]++;
    }
    if (!card.overall_passed && card.error_code) {
      this.errorCodes.set(card.error_code, (this.errorCodes.get(card.error_code) ?? 0) + 1);
    }
  }

  summary(topN = 5): EvaluationSummary {
    const stages = {} as Record<StageName, StagePassRate>;
    for (const name of STAGE_NAMES) {
      const ran = this.stageRan[name];
      stages[name] = { ran, passed: this.stagePassed[name], pass_rate: ran ? this.stagePassed[name] / ran : null };
    }
    const top_error_codes = [...this.errorCodes.entries()]
      .map(([error_code, count]) => ({ error_code, count }))
      .sort((a, b) => b.count - a.count || (a.error_code < b.error_code ? -1 : 1))
      .slice(0, topN);
    return {
      cases: this.cases,
      passed: this.passed,
      failed: this.cases - this.passed,
      pass_rate: this.cases ? this.passed / this.cases : null,
      mean_score: this.cases ? this.scoreSum / this.cases : null,
      stages,
      top_error_codes,
    };
  }
}

/** A short human-readable rendering of a summary (for terminals and logs). */
export function formatSummary(s: EvaluationSummary): string {
  const pct = (x: number | null): string => (x === null ? '   -  ' : `${(x * 100).toFixed(1).padStart(5)}%`);
  const lines = [
    `cases ${s.cases}   passed ${s.passed}   failed ${s.failed}   pass rate ${pct(s.pass_rate).trim()}   mean score ${s.mean_score === null ? '-' : s.mean_score.toFixed(3)}`,
    'stage        ran   passed  pass rate',
    ...STAGE_NAMES.map(
      (n) =>
        `${n.padEnd(10)} ${String(s.stages[n].ran).padStart(5)} ${String(s.stages[n].passed).padStart(8)}  ${pct(s.stages[n].pass_rate)}`,
    ),
  ];
  if (s.top_error_codes.length) {
    lines.push('top error codes: ' + s.top_error_codes.map((e) => `${e.error_code} (${e.count})`).join(', '));
  }
  return lines.join('\n');
}
