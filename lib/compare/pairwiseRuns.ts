import {
  type Clock,
  type EntityStore,
  JudgeError,
  NotFoundError,
  type PairwiseJudgePort,
  type PairwiseResult,
  type Stores,
} from '../ports/index.js';
import type { PairwiseComparison, PairwiseVerdict, Scorecard } from '../domain/index.js';
import { wilsonInterval } from '../statistics/index.js';

export interface PairwiseDeps {
  stores: Pick<Stores, 'runs' | 'scorecards' | 'testCases'> & { pairwiseVerdicts: EntityStore<PairwiseVerdict> };
  clock: Clock;
  judge: PairwiseJudgePort;
  /** verdicts asked for at once (default 4) */
  concurrency?: number;
}

const NO_CATEGORY = '(none)';

async function answers(runId: string, stores: PairwiseDeps['stores']): Promise<Map<string, Scorecard>> {
  if (!(await stores.runs.getRun(runId))) throw new NotFoundError('run', runId);
  const byCase = new Map<string, Scorecard>();
  for await (const card of stores.scorecards.iterateScorecards(runId))
    if (card.generated_nl_response?.trim()) byCase.set(card.test_case_id, card);
  return byCase;
}

/**
 * Pairwise verdicts on the cases two runs share (both with an answer): each pair judged in both orders by the
 * PairwiseJudge (inconsistent orders = tie), stored by `<A>~<B>~<case>~<model>` so asking again costs nothing. A
 * judge failure leaves the case out (`failed`), never a tie. Win/tie/loss of B against A overall and per category,
 * with the Wilson interval of B's win rate over decisive pairs.
 */
export async function pairwiseCompareRuns(runA: string, runB: string, deps: PairwiseDeps): Promise<PairwiseComparison> {
  const [a, b] = await Promise.all([answers(runA, deps.stores), answers(runB, deps.stores)]);
  const shared = [...b.keys()].filter((id) => a.has(id)).sort();
  const cases = new Map((await deps.stores.testCases.getTestCases(shared)).map((tc) => [tc.id, tc]));
  const verdicts: PairwiseVerdict[] = [];
  let cached = 0;
  let failed = 0;
  let cost = 0;
  const queue = [...shared];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const key = `${runA}~${runB}~${id}~${deps.judge.model}`;
      const stored = await deps.stores.pairwiseVerdicts.get(key);
      if (stored) {
        const { _etag, ...v } = stored;
        verdicts.push(v);
        cached++;
        continue;
      }
      const tc = cases.get(id);
      const cardA = a.get(id)!;
      const cardB = b.get(id)!;
      let result: PairwiseResult;
      try {
        result = await deps.judge.compare({
          question: tc?.nl_query ?? '(the case is no longer in the gold set)',
          ...(tc?.expected_nl_response ? { reference: tc.expected_nl_response } : {}),
          answerA: cardA.generated_nl_response!,
          answerB: cardB.generated_nl_response!,
        });
      } catch (error) {
        if (!(error instanceof JudgeError)) throw error;
        failed++;
        cost += error.cost_usd;
        continue;
      }
      cost += result.cost_usd;
      const verdict: PairwiseVerdict = {
        id: key,
        run_a: runA,
        run_b: runB,
        test_case_id: id,
        category: cardB.category,
        winner: result.winner,
        consistent: result.consistent,
        score_a: result.scoreA,
        score_b: result.scoreB,
        model: result.model,
        reasoning: result.reasoning,
        cost_usd: result.cost_usd,
        created_at: deps.clock.now().toISOString(),
      };
      await deps.stores.pairwiseVerdicts.upsert(verdict);
      verdicts.push(verdict);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, deps.concurrency ?? 4) }, worker));
  const groups = new Map<string, PairwiseVerdict[]>();
  for (const v of verdicts) groups.set(v.category ?? NO_CATEGORY, [...(groups.get(v.category ?? NO_CATEGORY) ?? []), v]);
  return {
    run_a: runA,
    run_b: runB,
    judge_model: deps.judge.model,
    compared: verdicts.length,
    cached,
    failed,
    inconsistent: verdicts.filter((v) => !v.consistent).length,
    overall: counts(verdicts),
    by_category: [...groups].sort(([x], [y]) => x.localeCompare(y)).map(([category, vs]) => ({ category, ...counts(vs) })),
    cost_usd: cost,
  };
}

function counts(verdicts: readonly PairwiseVerdict[]): PairwiseComparison['overall'] {
  const wins = verdicts.filter((v) => v.winner === 'B').length;
  const losses = verdicts.filter((v) => v.winner === 'A').length;
  const ties = verdicts.length - wins - losses;
  return { wins, ties, losses, win_rate: wins + losses > 0 ? wilsonInterval(wins, wins + losses) : null };
}
