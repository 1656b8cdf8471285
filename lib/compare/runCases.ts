import { caseIdOfKey, criterionScoresOf, LogHistogram, STAGE_NAMES, type StageName, type StageStatus } from '../domain/index.js';
import type { RunCaseOutcome } from './runOutcomes.js';

/** Stage status codes in `RunCases.stages` (4 per case, STAGE_NAMES order). */
export const STAGE_CODE = { skipped: 0, passed: 1, failed: 2, error: 3 } as const satisfies Record<StageStatus, number>;

/**
 * One run's cases (outcomes or scorecards), reduced to what a comparison needs and stored column-wise in typed arrays (about 70 bytes
 * a case plus its id), so a 400,000-case run fits in ~30 MB instead of gigabytes of scorecards. Categories and tag
 * sets are interned. When `pairWith` was given, `pair[i]` is the index of case i in that run (-1 when absent).
 *
 * Trials (`trials: k`): row i is one test case; every scored trial of it read from the stream is added to its sums
 * (`trials[i]` of them), so a comparison works on per-case trial means (`passFraction`, `meanScore`, ...), never trial
 * by trial. With one trial per case every mean is that trial's value. Category, tags and complexity come from the
 * case's first trial read. The latency of every trial also goes into `latencyHistogram`, the run's percentiles.
 */
export class RunCases {
  size = 0;
  /** test case ids (not trial keys) */
  ids: string[] = [];
  /** scored trials of the case */
  trials: Uint16Array;
  /** trials that passed */
  passes: Uint16Array;
  /** sum of overall_score over the trials */
  score: Float64Array;
  /** per case and stage (4 per case, STAGE_NAMES order): trials in which the stage ran (not skipped), and passed */
  stageRan: Uint16Array;
  stagePassed: Uint16Array;
  /** sums over the trials */
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
  /** every scored trial's latency (the platform's percentile definition: lib/domain/stats latencyPercentile) */
  readonly latencyHistogram = LogHistogram.empty();
  clientVersions = new Set<string>();
  /** per rubric criterion (semantic judge): per case the sum of its trials' scores (1-5) and how many were scored */
  readonly criterionSums = new Map<string, Float64Array>();
  readonly criterionCounts = new Map<string, Uint16Array>();
  private readonly categoryIndex = new Map<string, number>();
  private readonly tagSetIndex = new Map<string, number>();
  private readonly rowOf = new Map<string, number>();

  constructor(capacity: number) {
    const n = Math.max(16, capacity);
    this.trials = new Uint16Array(n);
    this.passes = new Uint16Array(n);
    this.score = new Float64Array(n);
    this.stageRan = new Uint16Array(4 * n);
    this.stagePassed = new Uint16Array(4 * n);
    this.latency = new Float64Array(n);
    this.cost = new Float64Array(n);
    this.complexity = new Uint8Array(n);
    this.category = new Int32Array(n);
    this.tagSet = new Int32Array(n);
    this.pair = new Int32Array(n);
  }

  /** Adds one scored trial of a case: a new row for a case not seen yet, else into the case's sums. */
  add(card: RunCaseOutcome, pairIndex = -1): void {
    const id = caseIdOf(card);
    let i = this.rowOf.get(id);
    if (i === undefined) {
      if (this.size === this.trials.length) this.grow();
      i = this.size++;
      this.rowOf.set(id, i);
      this.ids.push(id);
      this.complexity[i] = card.complexity_level;
      this.category[i] = card.category === null ? -1 : this.intern(this.categoryIndex, this.categories, card.category, card.category);
      this.tagSet[i] = this.internTags(card.tags);
      this.pair[i] = pairIndex;
    }
    const row = i;
    const inc = (a: Uint16Array, k: number) => (a[k] = (a[k] as number) + 1);
    inc(this.trials, row);
    if (card.overall_passed) inc(this.passes, row);
    this.score[row] = (this.score[row] as number) + card.overall_score;
    for (let s = 0; s < 4; s++) {
      const status = card.stages[STAGE_NAMES[s] as StageName].status;
      if (status !== 'skipped') inc(this.stageRan, 4 * row + s);
      if (status === 'passed') inc(this.stagePassed, 4 * row + s);
    }
    this.latency[row] = (this.latency[row] as number) + card.latency_ms;
    this.cost[row] = (this.cost[row] as number) + card.estimated_cost_usd;
    this.latencyHistogram.add(card.latency_ms);
    if ('details' in card.stages.semantics) this.addCriteriaAt(row, card);
    this.inputTokens += card.input_tokens;
    this.outputTokens += card.output_tokens;
    if (card.client_version) this.clientVersions.add(card.client_version);
  }

  /**
   * Adds a scorecard's rubric-criterion scores to its case's row (for a run whose cases were read from counted
   * outcomes, which carry no criteria: a second pass over its scorecards adds them). Unknown cases are ignored.
   */
  addCriteria(card: RunCaseOutcome): void {
    const row = this.rowOf.get(caseIdOf(card));
    if (row !== undefined) this.addCriteriaAt(row, card);
  }

  /** the case's mean score on a criterion over its trials, or -1 when none was scored on it */
  criterionMean(name: string, i: number): number {
    const n = this.criterionCounts.get(name)?.[i] ?? 0;
    return n === 0 ? -1 : (this.criterionSums.get(name)![i] as number) / n;
  }

  private addCriteriaAt(row: number, card: RunCaseOutcome): void {
    for (const { name, score } of criterionScoresOf(card)) {
      let sums = this.criterionSums.get(name);
      let counts = this.criterionCounts.get(name);
      if (!sums || !counts) {
        this.criterionSums.set(name, (sums = new Float64Array(this.trials.length)));
        this.criterionCounts.set(name, (counts = new Uint16Array(this.trials.length)));
      }
      sums[row] = (sums[row] as number) + score;
      counts[row] = (counts[row] as number) + 1;
    }
  }

  /** the case's pass fraction over its scored trials (0 or 1 with one trial) */
  passFraction(i: number): number {
    return (this.passes[i] as number) / (this.trials[i] as number);
  }

  meanScore(i: number): number {
    return (this.score[i] as number) / (this.trials[i] as number);
  }

  meanLatency(i: number): number {
    return (this.latency[i] as number) / (this.trials[i] as number);
  }

  meanCost(i: number): number {
    return (this.cost[i] as number) / (this.trials[i] as number);
  }

  /** the stage's pass fraction over the case's trials in which it ran, or -1 when it ran in none */
  stageFraction(i: number, s: number): number {
    const ran = this.stageRan[4 * i + s] as number;
    return ran === 0 ? -1 : (this.stagePassed[4 * i + s] as number) / ran;
  }

  categoryOf(i: number): string | null {
    const c = this.category[i] as number;
    return c < 0 ? null : (this.categories[c] as string);
  }

  tagsOf(i: number): readonly string[] {
    return this.tagSets[this.tagSet[i] as number] as string[];
  }

  /** id -> index (built on demand; used to pair another run with this one) */
  indexById(): ReadonlyMap<string, number> {
    return this.rowOf;
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
    const n = this.trials.length * 2;
    const grown = <A extends Uint8Array | Uint16Array | Float64Array | Int32Array>(a: A, size: number): A => {
      const b = new (a.constructor as new (n: number) => A)(size);
      b.set(a);
      return b;
    };
    this.trials = grown(this.trials, n);
    this.passes = grown(this.passes, n);
    this.score = grown(this.score, n);
    this.stageRan = grown(this.stageRan, 4 * n);
    this.stagePassed = grown(this.stagePassed, 4 * n);
    this.latency = grown(this.latency, n);
    this.cost = grown(this.cost, n);
    this.complexity = grown(this.complexity, n);
    this.category = grown(this.category, n);
    this.tagSet = grown(this.tagSet, n);
    this.pair = grown(this.pair, n);
    for (const [name, sums] of this.criterionSums) this.criterionSums.set(name, grown(sums, n));
    for (const [name, counts] of this.criterionCounts) this.criterionCounts.set(name, grown(counts, n));
  }
}

/**
 * Streams a run's case outcomes (its statistics' counted outcomes or its scorecards; every scored trial) into RunCases,
 * one row per test case. With `pairIndex` (the already loaded run's id -> index map), each case is paired with the same
 * test case of that run.
 */
export async function loadRunCases(
  scorecards: AsyncIterable<RunCaseOutcome>,
  options: { capacity: number; pairIndex?: ReadonlyMap<string, number> },
): Promise<RunCases> {
  const cases = new RunCases(options.capacity);
  const pairIndex = options.pairIndex;
  for await (const card of scorecards) cases.add(card, pairIndex ? (pairIndex.get(caseIdOf(card)) ?? -1) : -1);
  return cases;
}

/**
 * The key a case is paired by: its test case id, whichever source it comes from (a counted outcome of trial t > 1
 * is keyed by its trial key `<case id>#trial-<t>`; a scorecard carries `trial`), so all trials of a case fold into
 * one row and a case pairs with the same case of the other run, however many trials each run has.
 */
export function caseIdOf(card: RunCaseOutcome): string {
  return caseIdOfKey(card.test_case_id);
}
