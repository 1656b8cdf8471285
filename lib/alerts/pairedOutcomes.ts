import { type CaseOutcome, caseIdOfKey, criterionScoresOf } from '../domain/index.js';
import type { ScorecardStore } from '../ports/index.js';

/**
 * The cases two runs both scored, as compact columns (index i is one case in both runs): pass fraction, target
 * latency, cost and the case's category. About 40 bytes a pair plus the baseline's id index, so a 400,000-case
 * run stays within memory; whole scorecards are never held.
 *
 * Trials: every value is the case's mean over its scored trials (a pass fraction in [0, 1], mean latency, mean
 * cost), so runs pair case by case whatever their trial counts; with one trial per case the pass values are 0 or 1.
 */
export interface PairedOutcomes {
  n: number;
  /** per-case pass fraction over the scored trials (0 or 1 with one trial) */
  baselinePassed: Uint8Array | Float64Array;
  currentPassed: Uint8Array | Float64Array;
  baselineLatencyMs: Float64Array;
  currentLatencyMs: Float64Array;
  baselineCostUsd: Float64Array;
  currentCostUsd: Float64Array;
  /** index into `categories` */
  category: Uint32Array;
  /** category names; a case without one is filed under `(none)`, as run statistics do */
  categories: string[];
  /**
   * per rubric criterion both runs' scorecards carry (stage 4 judged on criteria): each pair's mean score over its
   * trials on the 1-5 scale, NaN where a side has none; empty when read from counted outcomes (they carry no criteria)
   */
  criteria?: Array<{ name: string; baseline: Float64Array; current: Float64Array }>;
}

export const NO_CATEGORY = '(none)';

/** The fields pairing reads: a CaseOutcome (statistics store) or a whole Scorecard both have them. */
export type PairableOutcome = Pick<CaseOutcome, 'test_case_id' | 'overall_passed' | 'latency_ms' | 'estimated_cost_usd' | 'category'> & {
  trial?: number | undefined;
  /** a scorecard's stages (its semantics details carry the rubric-criterion scores) */
  stages?: { semantics?: { status: string; details?: unknown } | undefined };
};

/** Streams both runs' scorecards once (`iterateScorecards`) and pairs them by test case id. */
export async function loadPairedOutcomes(
  scorecards: Pick<ScorecardStore, 'iterateScorecards'>,
  baselineRunId: string,
  currentRunId: string,
): Promise<PairedOutcomes> {
  return pairOutcomes(scorecards.iterateScorecards(baselineRunId), scorecards.iterateScorecards(currentRunId));
}

/**
 * Pairs two runs' case outcomes by test case id: the baseline's are read first into an id index, then each
 * current case with a baseline partner becomes pair i, in the order of its first outcome in the current stream.
 * Any source works (`iterateOutcomes`, `iterateScorecards`). Every outcome of a case (its trials: a scorecard's
 * `trial`, or a counted outcome's trial key) is summed into the case, and each side's value is the mean over the
 * trials read, so the pairs are per-case trial means. Pass the scored outcomes only (`scoredOutcomes`): an
 * infrastructure fault then counts in no mean.
 */
export async function pairOutcomes(
  baseline: AsyncIterable<PairableOutcome>,
  current: AsyncIterable<PairableOutcome>,
): Promise<PairedOutcomes> {
  const index = new Map<string, number>();
  const base = new Columns();
  for await (const card of baseline) {
    const id = caseIdOfKey(card.test_case_id); // all trials of a case, from either source
    const known = index.get(id);
    if (known !== undefined) base.addTo(known, card);
    else {
      index.set(id, base.n);
      base.push(card, 0, 0);
    }
  }
  const pairs = new Columns();
  const categoryIndex = new Map<string, number>();
  // the pair row of each baseline case (-1 until the current run has it): no second id index is needed
  const rowOfBase = new Int32Array(base.n).fill(-1);
  for await (const card of current) {
    const i = index.get(caseIdOfKey(card.test_case_id));
    if (i === undefined) continue;
    const row = rowOfBase[i]!;
    if (row >= 0) {
      pairs.addTo(row, card);
      continue;
    }
    const name = card.category ?? NO_CATEGORY;
    let c = categoryIndex.get(name);
    if (c === undefined) categoryIndex.set(name, (c = categoryIndex.size));
    rowOfBase[i] = pairs.n;
    pairs.push(card, i, c);
  }
  const n = pairs.n;
  const multi = base.multiTrial || pairs.multiTrial;
  const baselinePassed = multi ? new Float64Array(n) : new Uint8Array(n);
  const currentPassed = multi ? new Float64Array(n) : new Uint8Array(n);
  const baselineLatencyMs = new Float64Array(n);
  const baselineCostUsd = new Float64Array(n);
  const currentLatencyMs = new Float64Array(n);
  const currentCostUsd = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const i = pairs.partner[k]!;
    const bt = base.trials[i]!;
    const ct = pairs.trials[k]!;
    baselinePassed[k] = base.passed[i]! / bt;
    baselineLatencyMs[k] = base.latency[i]! / bt;
    baselineCostUsd[k] = base.cost[i]! / bt;
    currentPassed[k] = pairs.passed[k]! / ct;
    currentLatencyMs[k] = pairs.latency[k]! / ct;
    currentCostUsd[k] = pairs.cost[k]! / ct;
  }
  const criteria = [...pairs.criterionSums.keys()]
    .filter((name) => base.criterionSums.has(name))
    .sort()
    .map((name) => {
      const baselineScores = new Float64Array(n);
      const currentScores = new Float64Array(n);
      for (let k = 0; k < n; k++) {
        baselineScores[k] = base.criterionMean(name, pairs.partner[k]!);
        currentScores[k] = pairs.criterionMean(name, k);
      }
      return { name, baseline: baselineScores, current: currentScores };
    });
  return {
    n,
    ...(criteria.length ? { criteria } : {}),
    baselinePassed,
    currentPassed,
    baselineLatencyMs,
    currentLatencyMs,
    baselineCostUsd,
    currentCostUsd,
    category: pairs.category.slice(0, n),
    categories: [...categoryIndex.keys()],
  };
}

/** Growable typed columns of one side: sums over each case's trials (and, for pairs, the baseline partner and category of each). */
class Columns {
  n = 0;
  multiTrial = false;
  trials = new Uint16Array(1024);
  passed = new Uint16Array(1024);
  latency = new Float64Array(1024);
  cost = new Float64Array(1024);
  partner = new Uint32Array(1024);
  category = new Uint32Array(1024);
  /** per rubric criterion: case row -> [sum of its trials' scores, how many] (only for runs judged on criteria) */
  readonly criterionSums = new Map<string, Map<number, [number, number]>>();

  /** the case's mean score on a criterion over its trials, NaN when it has none */
  criterionMean(name: string, k: number): number {
    const entry = this.criterionSums.get(name)?.get(k);
    return entry ? entry[0] / entry[1] : Number.NaN;
  }

  private addCriteria(k: number, card: PairableOutcome): void {
    if (!card.stages?.semantics || !('details' in card.stages.semantics)) return;
    for (const { name, score } of criterionScoresOf({ stages: card.stages })) {
      let rows = this.criterionSums.get(name);
      if (!rows) this.criterionSums.set(name, (rows = new Map()));
      const entry = rows.get(k);
      if (entry) {
        entry[0] += score;
        entry[1]++;
      } else rows.set(k, [score, 1]);
    }
  }

  push(card: PairableOutcome, partner: number, category: number): void {
    if (this.n === this.passed.length) this.grow();
    const k = this.n++;
    this.trials[k] = 1;
    this.passed[k] = card.overall_passed ? 1 : 0;
    this.latency[k] = card.latency_ms;
    this.cost[k] = card.estimated_cost_usd;
    this.partner[k] = partner;
    this.category[k] = category;
    this.addCriteria(k, card);
  }

  /** another trial of case k */
  addTo(k: number, card: PairableOutcome): void {
    this.multiTrial = true;
    this.trials[k] = this.trials[k]! + 1;
    if (card.overall_passed) this.passed[k] = this.passed[k]! + 1;
    this.latency[k] = this.latency[k]! + card.latency_ms;
    this.cost[k] = this.cost[k]! + card.estimated_cost_usd;
    this.addCriteria(k, card);
  }

  private grow(): void {
    const size = 2 * this.passed.length;
    const grown = <A extends Uint16Array | Uint32Array | Float64Array>(a: A, b: A): A => (b.set(a), b);
    this.trials = grown(this.trials, new Uint16Array(size));
    this.passed = grown(this.passed, new Uint16Array(size));
    this.latency = grown(this.latency, new Float64Array(size));
    this.cost = grown(this.cost, new Float64Array(size));
    this.partner = grown(this.partner, new Uint32Array(size));
    this.category = grown(this.category, new Uint32Array(size));
  }
}
