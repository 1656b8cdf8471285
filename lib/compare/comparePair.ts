import type {
  PairSide,
  PairwiseCase,
  PairwiseSummary,
  ProportionInterval,
  Run,
  RunPairComparison,
  Scorecard,
  TestCase,
} from '../domain/index.js';
import type { PairwiseJudgePort } from '../ports/index.js';
import { wilsonInterval } from '../statistics/index.js';
import { caseTrialMeans, fractionSummary, type CaseTrialMeans } from './caseTrialMeans.js';
import { meanRate, PairedMeans } from './pairedMeans.js';

export interface PairRunData {
  run: Pick<Run, 'id' | 'target_id' | 'status'>;
  cards: readonly Scorecard[];
}

export interface ComparePairOptions {
  /** the answers to compare are judged when given; pass rates only otherwise */
  judge?: PairwiseJudgePort;
  /** the cases, for the question and reference answer the judge sees */
  cases?: ReadonlyMap<string, TestCase>;
  /** judge requests in flight (default 4) */
  concurrency?: number;
  abortSignal?: AbortSignal;
}

/**
 * Baseline vs enhanced on the same suite: each side's pass rate (pass@1 on per-case trial means over the scored
 * trials: Wilson interval when every case's trials agree, else a t interval), cost and tool calls per case, the
 * paired change on the shared cases' trial means (`paired`: McNemar while binary, else paired t), and, with a judge, the pairwise verdict on every (case, trial) both runs answered: the enhanced answer is A and
 * the baseline's B, asked in both orders (PairwiseJudge's position swap); a verdict the swap does not confirm is a
 * tie. The win rate is enhanced wins over decisive verdicts (ties left out), with a 95% Wilson interval. A pair
 * the judge fails on is counted in `errors` and left out: a judge fault never counts for either side.
 */
export async function comparePair(
  pairId: string,
  baseline: PairRunData,
  enhanced: PairRunData,
  options: ComparePairOptions = {},
): Promise<RunPairComparison> {
  const bMeans = caseTrialMeans(baseline.cards);
  const eMeans = caseTrialMeans(enhanced.cards);
  const b = side(baseline, bMeans);
  const e = side(enhanced, eMeans);
  const delta =
    b.pass_rate.estimate === null || e.pass_rate.estimate === null ? null : round((e.pass_rate.estimate - b.pass_rate.estimate) * 100, 2);
  const pairwise = options.judge ? await judgePairs(baseline.cards, enhanced.cards, options.judge, options) : null;
  return { pair_id: pairId, baseline: b, enhanced: e, pass_rate_delta_pts: delta, paired: pairedChange(bMeans, eMeans), pairwise };
}

/** The paired change of the cases both sides scored, on their trial means (null when none is shared). */
function pairedChange(baseline: CaseTrialMeans, enhanced: CaseTrialMeans): RunPairComparison['paired'] {
  const means = new PairedMeans();
  for (const [id, e] of [...enhanced.cases].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    const b = baseline.cases.get(id);
    if (b) means.add(b.passes / b.trials, e.passes / e.trials);
  }
  return means.n === 0 ? null : means.delta({ confidence: 0.95, alpha: 0.05 });
}

function side({ run, cards }: PairRunData, means: CaseTrialMeans): PairSide {
  const n = cards.length;
  const passed = cards.filter((c) => c.overall_passed).length;
  const cost = cards.reduce((sum, c) => sum + c.estimated_cost_usd, 0);
  const calls = cards.reduce((sum, c) => sum + agentCalls(c), 0);
  const latency = cards.reduce((sum, c) => sum + c.latency_ms, 0);
  const cases = means.cases.size;
  let passedCases = 0;
  for (const c of means.cases.values()) if (c.passes === c.trials) passedCases++;
  return {
    run_id: run.id,
    target_id: run.target_id,
    status: run.status,
    scorecards: n,
    passed,
    cases,
    not_scored: means.notScored,
    pass_rate: means.binary ? proportion(passedCases, cases) : meanProportion(means),
    total_cost_usd: round(cost, 6),
    mean_cost_usd: n ? round(cost / n, 8) : 0,
    calls_per_case: n ? round(calls / n, 3) : 0,
    mean_latency_ms: n ? round(latency / n, 1) : 0,
  };
}

/** pass@1 with the t interval over the per-case fractions (trials that disagree within a case). */
function meanProportion(means: CaseTrialMeans): ProportionInterval {
  const rate = meanRate(fractionSummary(means), 0.95);
  return { estimate: round(rate.rate ?? 0, 6), lower: round(rate.lower ?? 0, 6), upper: round(rate.upper ?? 1, 6), n: rate.n };
}

async function judgePairs(
  baseline: readonly Scorecard[],
  enhanced: readonly Scorecard[],
  judge: PairwiseJudgePort,
  options: ComparePairOptions,
): Promise<PairwiseSummary> {
  const byKey = new Map(baseline.map((c) => [key(c), c]));
  const pairs = enhanced.flatMap((e) => {
    const b = byKey.get(key(e));
    return b ? [{ e, b }] : [];
  });
  const verdicts: Array<PairwiseCase | undefined> = new Array(pairs.length);
  let errors = 0;
  let cost = 0;
  let next = 0;
  const worker = async () => {
    while (next < pairs.length) {
      const index = next++;
      const { e, b } = pairs[index]!;
      const testCase = options.cases?.get(e.test_case_id);
      try {
        const result = await judge.compare(
          {
            question: testCase?.nl_query ?? e.test_case_id,
            ...(testCase?.expected_nl_response ? { reference: testCase.expected_nl_response } : {}),
            answerA: e.generated_nl_response ?? '',
            answerB: b.generated_nl_response ?? '',
          },
          options.abortSignal ? { abortSignal: options.abortSignal } : {},
        );
        cost += result.cost_usd;
        verdicts[index] = {
          test_case_id: e.test_case_id,
          trial: e.trial ?? 1,
          winner: result.winner === 'A' ? 'enhanced' : result.winner === 'B' ? 'baseline' : 'tie',
          consistent: result.consistent,
          score_enhanced: result.scoreA,
          score_baseline: result.scoreB,
        };
      } catch (error) {
        if (options.abortSignal?.aborted) throw error;
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  const cases = verdicts.filter((v): v is PairwiseCase => v !== undefined);
  const wins = cases.filter((c) => c.winner === 'enhanced').length;
  const losses = cases.filter((c) => c.winner === 'baseline').length;
  return {
    judge_model: judge.model,
    judged: cases.length,
    enhanced_wins: wins,
    ties: cases.length - wins - losses,
    baseline_wins: losses,
    inconsistent: cases.filter((c) => !c.consistent).length,
    errors,
    win_rate: proportion(wins, wins + losses),
    judge_cost_usd: round(cost, 6),
    cases,
  };
}

/** The tool calls the agent made: its trajectory's calls when it ran a loop, else the calls in its answer (stage-3 replays are not counted). */
function agentCalls(card: Scorecard): number {
  if (card.trajectory) return card.trajectory.steps.filter((s) => s.kind === 'tool_call').length;
  return card.generated_tool_calls.length;
}

function key(card: Scorecard): string {
  return `${card.test_case_id}\u0000${card.trial ?? 1}`;
}

function proportion(successes: number, n: number): ProportionInterval {
  const interval = wilsonInterval(successes, n);
  return { estimate: n === 0 ? null : round(interval.estimate, 6), lower: round(interval.lower, 6), upper: round(interval.upper, 6), n };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
