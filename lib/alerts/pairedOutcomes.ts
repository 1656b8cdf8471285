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

/** Streams both runs' scorecards once (`iterateScorecards`) and pairs them by test case id. */
export async function loadPairedOutcomes(scorecards: Pick<ScorecardStore, 'iterateScorecards'>, baselineRunId: string, currentRunId: string): Promise<PairedOutcomes> {
  const index = new Map<string, number>();
  const basePassed: number[] = [];
  const baseLatency: number[] = [];
  const baseCost: number[] = [];
  for await (const card of scorecards.iterateScorecards(baselineRunId)) {
    if (index.has(card.test_case_id)) continue;
    index.set(card.test_case_id, basePassed.length);
    basePassed.push(card.overall_passed ? 1 : 0);
    baseLatency.push(card.latency_ms);
    baseCost.push(card.estimated_cost_usd);
  }
  const pairs = { base: [] as number[], passed: [] as number[], latency: [] as number[], cost: [] as number[], category: [] as number[] };
  const categoryIndex = new Map<string, number>();
  // a run holds one scorecard per case (the store's key), so each current card pairs at most once
  for await (const card of scorecards.iterateScorecards(currentRunId)) {
    const i = index.get(card.test_case_id);
    if (i === undefined) continue;
    const name = card.category ?? NO_CATEGORY;
    let c = categoryIndex.get(name);
    if (c === undefined) categoryIndex.set(name, (c = categoryIndex.size));
    pairs.base.push(i);
    pairs.passed.push(card.overall_passed ? 1 : 0);
    pairs.latency.push(card.latency_ms);
    pairs.cost.push(card.estimated_cost_usd);
    pairs.category.push(c);
  }
  const pick = (column: number[]): Float64Array => Float64Array.from(pairs.base, (i) => column[i] as number);
  return {
    n: pairs.base.length,
    baselinePassed: Uint8Array.from(pairs.base, (i) => basePassed[i] as number),
    currentPassed: Uint8Array.from(pairs.passed),
    baselineLatencyMs: pick(baseLatency),
    currentLatencyMs: Float64Array.from(pairs.latency),
    baselineCostUsd: pick(baseCost),
    currentCostUsd: Float64Array.from(pairs.cost),
    category: Uint32Array.from(pairs.category),
    categories: [...categoryIndex.keys()],
  };
}
