import { scorecardKeyOf, STAGE_NAMES, type StageName, type StageStatus } from '../domain/index.js';
import type { RunCaseOutcome } from './runOutcomes.js';

/** Stage status codes in `RunCases.stages` (4 per case, STAGE_NAMES order). */
export const STAGE_CODE = { skipped: 0, passed: 1, failed: 2, error: 3 } as const satisfies Record<StageStatus, number>;

/**
 * One run's cases (outcomes or scorecards), reduced to what a comparison needs and stored column-wise in typed arrays (about 60 bytes
 * a case plus its id), so a 400,000-case run fits in ~30 MB instead of gigabytes of scorecards. Categories and tag
 * sets are interned. When `pairWith` was given, `pair[i]` is the index of case i in that run (-1 when absent).
 */
export class RunCases {
  size = 0;
  ids: string[] = [];
  passed: Uint8Array;
  score: Float64Array;
  stages: Uint8Array;
  latency: Float64Array;
  cost: Float64Array;
  complexity: Uint8Array;
  /** index into `categories`, -1 for none */
  category: Int32Array;
  /** index into `tagSets` */
  tagSet: Int32Array;
  pair: Int32Array;
  categories: string[] = [];
  tagSets: string[][] = [];
  inputTokens = 0;
  outputTokens = 0;
  clientVersions = new Set<string>();
  private readonly categoryIndex = new Map<string, number>();
  private readonly tagSetIndex = new Map<string, number>();

  constructor(capacity: number) {
    const n = Math.max(16, capacity);
    this.passed = new Uint8Array(n);
    this.score = new Float64Array(n);
    this.stages = new Uint8Array(4 * n);
    this.latency = new Float64Array(n);
    this.cost = new Float64Array(n);
    this.complexity = new Uint8Array(n);
    this.category = new Int32Array(n);
    this.tagSet = new Int32Array(n);
    this.pair = new Int32Array(n);
  }

  add(card: RunCaseOutcome, pairIndex = -1): void {
    if (this.size === this.passed.length) this.grow();
    const i = this.size++;
    this.ids.push(caseKeyOf(card));
    this.passed[i] = card.overall_passed ? 1 : 0;
    this.score[i] = card.overall_score;
    for (let s = 0; s < 4; s++) this.stages[4 * i + s] = STAGE_CODE[card.stages[STAGE_NAMES[s] as StageName].status];
    this.latency[i] = card.latency_ms;
    this.cost[i] = card.estimated_cost_usd;
    this.complexity[i] = card.complexity_level;
    this.category[i] = card.category === null ? -1 : this.intern(this.categoryIndex, this.categories, card.category, card.category);
    this.tagSet[i] = this.internTags(card.tags);
    this.pair[i] = pairIndex;
    this.inputTokens += card.input_tokens;
    this.outputTokens += card.output_tokens;
    if (card.client_version) this.clientVersions.add(card.client_version);
  }

  stage(i: number, s: number): number {
    return this.stages[4 * i + s] as number;
  }

  categoryOf(i: number): string | null {
    const c = this.category[i] as number;
    return c < 0 ? null : (this.categories[c] as string);
  }

  tagsOf(i: number): readonly string[] {
    return this.tagSets[this.tagSet[i] as number] as string[];
  }

  /** id -> index (built on demand; used to pair another run with this one) */
  indexById(): Map<string, number> {
    const index = new Map<string, number>();
    this.ids.forEach((id, i) => index.set(id, i));
    return index;
  }

  /** a tag set's index; the common shapes (none, one, already sorted) skip the copy and sort */
  private internTags(tags: readonly string[]): number {
    let key: string;
    if (tags.length === 0) key = '';
    else if (tags.length === 1) key = tags[0] as string;
    else key = tags.join('\u0000');
    const known = this.tagSetIndex.get(key);
    if (known !== undefined) return known;
    const normal = [...new Set(tags)].sort();
    const k = this.intern(this.tagSetIndex, this.tagSets, normal.join('\u0000'), normal);
    this.tagSetIndex.set(key, k);
    return k;
  }

  private intern<T>(index: Map<string, number>, values: T[], key: string, value: T): number {
    let k = index.get(key);
    if (k === undefined) {
      k = values.length;
      values.push(value);
      index.set(key, k);
    }
    return k;
  }

  private grow(): void {
    const n = this.passed.length * 2;
    const grown = <A extends Uint8Array | Float64Array | Int32Array>(a: A, size: number): A => {
      const b = new (a.constructor as new (n: number) => A)(size);
      b.set(a);
      return b;
    };
    this.passed = grown(this.passed, n);
    this.score = grown(this.score, n);
    this.stages = grown(this.stages, 4 * n);
    this.latency = grown(this.latency, n);
    this.cost = grown(this.cost, n);
    this.complexity = grown(this.complexity, n);
    this.category = grown(this.category, n);
    this.tagSet = grown(this.tagSet, n);
    this.pair = grown(this.pair, n);
  }
}

/**
 * Streams a run's case outcomes (its statistics' counted outcomes or its scorecards) into RunCases. With `pairWith`, each case is paired with the same test case of that
 * (already loaded) run through `pairIndex` (its id -> index map).
 */
export async function loadRunCases(
  scorecards: AsyncIterable<RunCaseOutcome>,
  options: { capacity: number; pairIndex?: ReadonlyMap<string, number> },
): Promise<RunCases> {
  const cases = new RunCases(options.capacity);
  for await (const card of scorecards) cases.add(card, options.pairIndex?.get(caseKeyOf(card)) ?? -1);
  return cases;
}

/**
 * The key a case is paired by: its trial key (lib/domain/trial.ts), whichever source it comes from (a counted outcome
 * is keyed by it already; a scorecard carries `trial`), so trial t of one run pairs with trial t of the other.
 */
export function caseKeyOf(card: RunCaseOutcome): string {
  return scorecardKeyOf(card as { test_case_id: string; trial?: number });
}
