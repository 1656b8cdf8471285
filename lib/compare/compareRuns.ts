import { ComparisonOptionsSchema, type Comparison, type ComparisonOptions, type Run } from '../domain/index.js';
import { ConflictError, NotFoundError, type Clock, type Stores } from '../ports/index.js';
import { flippedCases } from './flippedCases.js';
import { judgedOnCriteria } from './judgedOnCriteria.js';
import { pairRuns } from './pairRuns.js';
import { runOutcomes } from './runOutcomes.js';
import { scoredOutcomes, type NotScoredTally } from './scoredOutcomes.js';
import { loadRunCases, type RunCases } from './runCases.js';
import { summarizeRun } from './summarizeRun.js';
import { caseHashesOf, differentVersions, pairOnEqualHashes } from './versionPairing.js';

export interface CompareRunsDeps {
  /** with `runStats`, the cases are read from its compact outcomes when it has the run's statistics */
  stores: Pick<Stores, 'runs' | 'scorecards'> & Partial<Pick<Stores, 'runStats' | 'suiteVersions'>>;
  clock: Clock;
}

export interface CompareRunsOptions extends Partial<ComparisonOptions> {
  /** compare runs still pending or running (live alerts do); default false: they raise ConflictError (409) */
  allowUnfinished?: boolean;
}

const UNFINISHED: ReadonlySet<Run['status']> = new Set(['pending', 'running', 'stalled']);

/** 'A', 'B', ... for run positions. */
export function runLabel(index: number): string {
  return String.fromCharCode(65 + index);
}

/**
 * Compares 2 to 10 runs, the first being the reference: each run's own figures side by side, and each other run
 * paired with the reference on the cases both scored (overall, stages, categories, tags, complexity, latency,
 * cost, flipped cases, MDE, verdict). Each run's cases are streamed into compact columns (the reference's stay
 * in memory, each other run's only while it is compared), so memory stays around 60 bytes a case: from the
 * statistics store's counted outcomes when it has the run (`runOutcomes`), else from `iterateScorecards`; only
 * the flipped cases shown are read as whole scorecards (point lookups). Throws NotFoundError for an unknown run
 * and ConflictError for an unfinished one.
 */
export async function compareRuns(runIds: readonly string[], deps: CompareRunsDeps, options: CompareRunsOptions = {}): Promise<Comparison> {
  if (runIds.length < 2 || runIds.length > 10) throw new RangeError(`compare 2 to 10 runs, got ${runIds.length}`);
  const { allowUnfinished = false, ...rest } = options;
  const resolved = ComparisonOptionsSchema.parse(rest);
  const runs: Run[] = [];
  for (const id of runIds) {
    const found = await deps.stores.runs.getRun(id);
    if (!found) throw new NotFoundError('run', id);
    if (!allowUnfinished && UNFINISHED.has(found.status))
      throw new ConflictError('run', id, `is ${found.status}; compare it once it has finished`);
    const { _etag, ...run } = found;
    runs.push(run);
  }
  const [reference, ...others] = runs as [Run, ...Run[]];
  const { runStats, scorecards } = deps.stores;
  // not-scored cases (infrastructure failures) are left out of every figure and pair; each side says how many
  const casesOf = async (runId: string, tally: NotScoredTally) =>
    scoredOutcomes(runStats ? await runOutcomes({ runStats, scorecards }, runId) : scorecards.iterateScorecards(runId), tally);
  // counted outcomes carry no rubric-criterion scores: for a run judged on criteria, a second pass reads its scorecards
  const withCriteria = async (run: Run, cases: RunCases): Promise<RunCases> => {
    if (cases.criterionSums.size > 0 || !judgedOnCriteria(run) || !runStats || !(await runStats.getRunStats(run.id))) return cases;
    for await (const card of scoredOutcomes(scorecards.iterateScorecards(run.id))) cases.addCriteria(card);
    return cases;
  };
  const referenceTally = { not_scored: 0 };
  const baseline = await withCriteria(
    reference,
    await loadRunCases(await casesOf(reference.id, referenceTally), { capacity: reference.total_cases }),
  );
  const pairIndex = baseline.indexById();
  const summaries = [summarizeRun(reference, baseline, runLabel(0), resolved.confidence, referenceTally.not_scored)];
  const pairs: Comparison['pairs'] = [];
  for (const [k, run] of others.entries()) {
    const label = runLabel(k + 1);
    const tally = { not_scored: 0 };
    const candidate = await withCriteria(run, await loadRunCases(await casesOf(run.id, tally), { capacity: run.total_cases, pairIndex }));
    summaries.push(summarizeRun(run, candidate, label, resolved.confidence, tally.not_scored));
    // different suite versions: pair only the cases whose content hash is equal (lib/compare/versionPairing.ts)
    const versions = differentVersions(reference, run)
      ? pairOnEqualHashes({ baseline: reference, candidate: run }, baseline, candidate, {
          baseline: await caseHashesOf(reference, deps.stores),
          candidate: await caseHashesOf(run, deps.stores),
        })
      : undefined;
    const paired = pairRuns(
      { baseline: reference, candidate: run, baselineLabel: runLabel(0), candidateLabel: label },
      baseline,
      candidate,
      resolved,
    );
    const ids = { baseline: reference.id, candidate: run.id };
    const idsOf = (indices: number[]) => indices.map((j) => baseline.ids[j] as string);
    const fractions = trialFractions(baseline, candidate, [...paired.newlyFailing, ...paired.newlyPassing]);
    paired.pair.flipped.newly_failing.cases = await flippedCases(
      deps.stores.scorecards,
      ids,
      idsOf(paired.newlyFailing),
      resolved.max_flipped,
      fractions,
    );
    paired.pair.flipped.newly_passing.cases = await flippedCases(
      deps.stores.scorecards,
      ids,
      idsOf(paired.newlyPassing),
      resolved.max_flipped,
      fractions,
    );
    pairs.push(versions ? { ...paired.pair, suite_versions: versions } : paired.pair);
  }
  return { run_ids: [...runIds], options: resolved, runs: summaries, pairs, created_at: deps.clock.now().toISOString() };
}

/** With trials on either side: the pass fractions (baseline, candidate) of the given baseline cases, by case id; else undefined. */
function trialFractions(
  baseline: RunCases,
  candidate: RunCases,
  baselineIndices: readonly number[],
): Map<string, [number, number]> | undefined {
  const multi = (cases: RunCases) => cases.trials.subarray(0, cases.size).some((t) => t > 1);
  if (baselineIndices.length === 0 || !(multi(baseline) || multi(candidate))) return undefined;
  const wanted = new Set(baselineIndices);
  const out = new Map<string, [number, number]>();
  for (let i = 0; i < candidate.size; i++) {
    const j = candidate.pair[i] as number;
    if (j >= 0 && wanted.has(j)) out.set(baseline.ids[j] as string, [baseline.passFraction(j), candidate.passFraction(i)]);
  }
  return out;
}
