import { type CaseOutcome, scorecardKeyOf } from '../domain/index.js';
import type { ScorecardStore } from '../ports/index.js';

/**
 * The cases two runs both scored, as compact columns (index i is one case in both runs): pass/fail, target
 * latency, cost and the case's category. About 30 bytes a pair plus the baseline's id index, so a 400,000-case
 * run stays within memory; whole scorecards are never held.
 */
export interface PairedOutcomes {
  n: number;
  baselinePassed: Uint8Array;
  currentPassed: Uint8Array;
  baselineLatencyMs: Float64Array;
  currentLatencyMs: Float64Array;
  baselineCostUsd: Float64Array;
  currentCostUsd: Float64Array;
  /** index into `categories` */
  category: Uint32Array;
  /** category names; a case without one is filed under `(none)`, as run statistics do */
  categories: string[];
}

export const NO_CATEGORY = '(none)';

/** The fields pairing reads: a CaseOutcome (statistics store) or a whole Scorecard both have them. */
export type PairableOutcome = Pick<CaseOutcome, 'test_case_id' | 'overall_passed' | 'latency_ms' | 'estimated_cost_usd' | 'category'> & {
  trial?: number | undefined;
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
 * current outcome with a baseline partner becomes pair i, in the current stream's order. Any source works
 * (`iterateOutcomes`, `iterateScorecards`); a case listed twice in the baseline keeps its first outcome.
 */
export async function pairOutcomes(
  baseline: AsyncIterable<PairableOutcome>,
  current: AsyncIterable<PairableOutcome>,
): Promise<PairedOutcomes> {
  const index = new Map<string, number>();
  const base = new Columns();
  for await (const card of baseline) {
    const key = scorecardKeyOf(card); // trial t pairs with trial t, from either source
    if (index.has(key)) continue;
    index.set(key, base.n);
    base.push(card, 0, 0);
  }
  const pairs = new Columns();
  const categoryIndex = new Map<string, number>();
  // a run holds one scorecard (and one counted outcome) per case, so each current one pairs at most once
  for await (const card of current) {
    const i = index.get(scorecardKeyOf(card));
    if (i === undefined) continue;
    const name = card.category ?? NO_CATEGORY;
    let c = categoryIndex.get(name);
    if (c === undefined) categoryIndex.set(name, (c = categoryIndex.size));
    pairs.push(card, i, c);
  }
  const n = pairs.n;
  const baselinePassed = new Uint8Array(n);
  const baselineLatencyMs = new Float64Array(n);
  const baselineCostUsd = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const i = pairs.partner[k]!;
    baselinePassed[k] = base.passed[i]!;
    baselineLatencyMs[k] = base.latency[i]!;
    baselineCostUsd[k] = base.cost[i]!;
  }
  return {
    n,
    baselinePassed,
    currentPassed: pairs.passed.slice(0, n),
    baselineLatencyMs,
    currentLatencyMs: pairs.latency.slice(0, n),
    baselineCostUsd,
    currentCostUsd: pairs.cost.slice(0, n),
    category: pairs.category.slice(0, n),
    categories: [...categoryIndex.keys()],
  };
}

/** Growable typed columns of one side (and, for pairs, the baseline partner and category of each). */
class Columns {
  n = 0;
  passed = new Uint8Array(1024);
  latency = new Float64Array(1024);
  cost = new Float64Array(1024);
  partner = new Uint32Array(1024);
  category = new Uint32Array(1024);

  push(card: PairableOutcome, partner: number, category: number): void {
    if (this.n === this.passed.length) this.grow();
    const k = this.n++;
    this.passed[k] = card.overall_passed ? 1 : 0;
    this.latency[k] = card.latency_ms;
    this.cost[k] = card.estimated_cost_usd;
    this.partner[k] = partner;
    this.category[k] = category;
  }

  private grow(): void {
    const size = 2 * this.passed.length;
    const grown = <A extends Uint8Array | Uint32Array | Float64Array>(a: A, b: A): A => (b.set(a), b);
    this.passed = grown(this.passed, new Uint8Array(size));
    this.latency = grown(this.latency, new Float64Array(size));
    this.cost = grown(this.cost, new Float64Array(size));
    this.partner = grown(this.partner, new Uint32Array(size));
    this.category = grown(this.category, new Uint32Array(size));
  }
}
