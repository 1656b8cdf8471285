import {
  bayesianPassRateComparison,
  holmAdjust,
  mcnemarExact,
  meanInterval,
  pairedTTest,
  pairedProportionDifference,
  sequentialMcNemar,
  summarize,
  wilsonInterval,
  type EstimateInterval,
} from '../statistics/index.js';
import type {
  Experiment,
  ExperimentCaseOutcome,
  ExperimentComparison,
  ExperimentResults,
  Guardrail,
  GuardrailResult,
} from '../domain/index.js';

/** What the analysis reads: each variant's outcomes by case id, and whether every variant run is complete. */
export interface ExperimentData {
  outcomes: ReadonlyMap<string, ReadonlyMap<string, ExperimentCaseOutcome>>;
  runsComplete: boolean;
}

type Interval = { estimate: number | null; lower: number | null; upper: number | null };

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
const toInterval = (i: EstimateInterval): Interval => ({ estimate: finite(i.estimate), lower: finite(i.lower), upper: finite(i.upper) });

function metricInterval(values: number[]): Interval | null {
  if (values.length === 0) return null;
  return toInterval(meanInterval(summarize(values)));
}

/** Cases both sides scored, in a stable order. */
function pairedCases(control: ReadonlyMap<string, ExperimentCaseOutcome>, variant: ReadonlyMap<string, ExperimentCaseOutcome>): string[] {
  const ids: string[] = [];
  for (const [id, o] of control) if (o.passed !== null && variant.get(id)?.passed != null) ids.push(id);
  return ids.sort();
}

function guardrailOf(
  guardrail: Guardrail,
  ids: string[],
  control: ReadonlyMap<string, ExperimentCaseOutcome>,
  variant: ReadonlyMap<string, ExperimentCaseOutcome>,
  passDifference: EstimateInterval,
): GuardrailResult {
  const status = (d: Interval | null): GuardrailResult['status'] => {
    if (!d || d.estimate === null || d.lower === null || d.upper === null) return 'no_data';
    if (d.upper <= guardrail.max_degradation) return 'passed';
    if (d.lower > guardrail.max_degradation) return 'failed';
    return 'inconclusive';
  };
  let degradation: Interval | null;
  if (guardrail.metric === 'pass_rate') {
    // a drop in pass rate: control minus variant
    degradation =
      ids.length === 0 ? null : { estimate: -passDifference.estimate, lower: -passDifference.upper, upper: -passDifference.lower };
  } else {
    const key = guardrail.metric;
    const diffs: number[] = [];
    const base: number[] = [];
    for (const id of ids) {
      const a = control.get(id)?.[key];
      const b = variant.get(id)?.[key];
      if (a === undefined || b === undefined) continue;
      diffs.push(b - a);
      base.push(a);
    }
    const baseMean = summarize(base).mean;
    if (diffs.length < 2 || !(baseMean > 0)) degradation = null;
    else {
      // relative increase over the control's mean on the same cases
      const i = meanInterval(summarize(diffs));
      degradation = toInterval({ estimate: i.estimate / baseMean, lower: i.lower / baseMean, upper: i.upper / baseMean });
    }
  }
  return { metric: guardrail.metric, max_degradation: guardrail.max_degradation, degradation, status: status(degradation) };
}

/**
 * The results of an experiment from its variants' per-case outcomes (pure). Each treatment variant is paired with
 * the control on the cases both scored ("not scored" cases drop out of both). The primary metric (pass rate) is
 * decided by the experiment's method:
 * - frequentist: exact McNemar, Holm-adjusted over the treatment variants; decides once the paired cases reach the
 *   minimum sample size or the runs are complete (looking earlier would inflate false positives);
 * - bayesian: P(variant better) and the expected loss of choosing it (Beta(1, 1) posteriors); better when
 *   P >= 1 - alpha and the loss is under `loss_threshold`, worse when P <= alpha; same gate as frequentist;
 * - sequential: the always-valid mSPRT p-value (running minimum over looks, from `experiment.sequential_p`),
 *   Holm-adjusted; decides at any look.
 * A winner is the best "better" variant whose guardrails none failed nor stayed inconclusive. Returns the results
 * and the sequential p-values to store for the next look.
 */
export function experimentResults(
  experiment: Experiment,
  data: ExperimentData,
): { results: ExperimentResults; sequentialP: Record<string, number> } {
  const control = experiment.variants.find((v) => v.control)!;
  const empty = new Map<string, ExperimentCaseOutcome>();
  const outcomesOf = (name: string): ReadonlyMap<string, ExperimentCaseOutcome> => data.outcomes.get(name) ?? empty;
  const controlOutcomes = outcomesOf(control.name);

  const variants = experiment.variants.map((v) => {
    const outcomes = [...outcomesOf(v.name).values()];
    const scored = outcomes.filter((o) => o.passed !== null);
    const passed = scored.filter((o) => o.passed === true).length;
    return {
      name: v.name,
      control: v.control,
      run_id: experiment.runs[v.name] ?? null,
      scored: scored.length,
      passed,
      pass_rate: toInterval(wilsonInterval(passed, scored.length)),
      latency_ms: metricInterval(outcomes.flatMap((o) => (o.latency_ms === undefined ? [] : [o.latency_ms]))),
      cost_usd: metricInterval(outcomes.flatMap((o) => (o.cost_usd === undefined ? [] : [o.cost_usd]))),
    };
  });

  const sequentialP: Record<string, number> = {};
  const treatments = experiment.variants.filter((v) => !v.control);
  const partial = treatments.map((v) => {
    const outcomes = outcomesOf(v.name);
    const ids = pairedCases(controlOutcomes, outcomes);
    const table = { both_passed: 0, a_only: 0, b_only: 0, both_failed: 0 };
    for (const id of ids) {
      const a = controlOutcomes.get(id)!.passed;
      const b = outcomes.get(id)!.passed;
      if (a && b) table.both_passed++;
      else if (a) table.a_only++;
      else if (b) table.b_only++;
      else table.both_failed++;
    }
    const passDifference = pairedProportionDifference(table, 1 - experiment.alpha);
    let difference: EstimateInterval = passDifference;
    let effect: ExperimentComparison['effect_size'] = { name: 'cohens_h', value: null };
    if (ids.length > 0) {
      const pa = (table.both_passed + table.a_only) / ids.length;
      const pb = (table.both_passed + table.b_only) / ids.length;
      effect = { name: 'cohens_h', value: 2 * Math.asin(Math.sqrt(pb)) - 2 * Math.asin(Math.sqrt(pa)) };
    }
    let p: number | null = null;
    let probability: number | null = null;
    let loss: number | null = null;
    if (experiment.primary_metric !== 'pass_rate') {
      // latency or cost per case: paired t-test on the per-case differences (variant minus control; lower is better)
      const key = experiment.primary_metric;
      const diffs: number[] = [];
      for (const id of ids) {
        const a = controlOutcomes.get(id)![key];
        const b = outcomes.get(id)![key];
        if (a !== undefined && b !== undefined) diffs.push(b - a);
      }
      const summary = summarize(diffs);
      if (summary.n >= 2) {
        const t = pairedTTest(summary, { confidence: 1 - experiment.alpha });
        p = t.p_value;
        difference = { estimate: t.difference, lower: t.lower, upper: t.upper };
        const sd = Math.sqrt(summary.variance);
        effect = { name: 'cohens_d', value: sd > 0 ? summary.mean / sd : null };
      } else {
        difference = { estimate: Number.NaN, lower: Number.NaN, upper: Number.NaN };
        effect = { name: 'cohens_d', value: null };
      }
    } else if (experiment.method === 'frequentist') p = mcnemarExact(table.a_only, table.b_only).p_value;
    else if (experiment.method === 'sequential') {
      const look = sequentialMcNemar(table.a_only, table.b_only, { alpha: experiment.alpha, previousP: experiment.sequential_p[v.name] });
      p = look.p_value;
      sequentialP[v.name] = p;
    } else {
      const aPassed = table.both_passed + table.a_only;
      const bPassed = table.both_passed + table.b_only;
      const bayes = bayesianPassRateComparison({ passed: aPassed, n: ids.length }, { passed: bPassed, n: ids.length }, { seed: 42 });
      probability = bayes.probability_b_better;
      loss = bayes.expected_loss_choosing_b;
    }
    const guardrails = experiment.guardrails.map((g) => guardrailOf(g, ids, controlOutcomes, outcomes, passDifference));
    return { v, ids, table, difference, effect, p, probability, loss, guardrails };
  });

  const adjusted = partial.some((x) => x.p !== null) ? holmAdjust(partial.map((x) => x.p ?? 1)) : [];
  const comparisons: ExperimentComparison[] = partial.map((x, i) => {
    const decidable = experiment.method === 'sequential' || data.runsComplete || x.ids.length >= experiment.minimum_sample_size;
    let decision: ExperimentComparison['decision'] = 'inconclusive';
    if (decidable && x.ids.length > 0) {
      if (experiment.method === 'bayesian') {
        if (x.probability! >= 1 - experiment.alpha && x.loss! < experiment.loss_threshold) decision = 'better';
        else if (x.probability! <= experiment.alpha) decision = 'worse';
      } else if (adjusted[i]! <= experiment.alpha) {
        const higher = experiment.primary_metric === 'pass_rate' ? x.table.b_only > x.table.a_only : (x.difference.estimate ?? 0) > 0;
        // pass rate: higher is better; latency and cost: lower is better
        decision = higher === (experiment.primary_metric === 'pass_rate') ? 'better' : 'worse';
      }
    }
    return {
      variant: x.v.name,
      paired_cases: x.ids.length,
      control_only: x.table.a_only,
      variant_only: x.table.b_only,
      difference: toInterval(x.difference),
      effect_size: { name: x.effect.name, value: x.effect.value === null ? null : finite(x.effect.value) },
      odds_ratio: x.table.a_only === 0 ? null : x.table.b_only / x.table.a_only,
      p_value: x.p,
      adjusted_p_value: x.p === null ? null : adjusted[i]!,
      probability_of_improvement: x.probability,
      expected_loss: x.loss,
      decidable,
      decision,
      guardrails: x.guardrails,
    };
  });

  // the best of the better variants: the largest improvement on the primary metric
  const gain = (c: ExperimentComparison): number => (experiment.primary_metric === 'pass_rate' ? 1 : -1) * (c.difference.estimate ?? 0);
  const winners = comparisons
    .filter((c) => c.decision === 'better' && c.guardrails.every((g) => g.status === 'passed' || g.status === 'no_data'))
    .sort((a, b) => gain(b) - gain(a));
  const winner = winners[0]?.variant ?? null;
  const allDecided = comparisons.every((c) => c.decidable) && data.runsComplete;
  const verdict: ExperimentResults['verdict'] = winner ? 'winner' : allDecided ? 'no_winner' : 'no_winner_yet';
  return {
    results: {
      experiment_id: experiment.id,
      status: experiment.status,
      method: experiment.method,
      primary_metric: experiment.primary_metric,
      alpha: experiment.alpha,
      minimum_sample_size: experiment.minimum_sample_size,
      runs_complete: data.runsComplete,
      variants,
      comparisons,
      winner,
      verdict,
      recommendation: recommendationOf(experiment, comparisons, winner, verdict, control.name),
    },
    sequentialP,
  };
}

function recommendationOf(
  experiment: Experiment,
  comparisons: ExperimentComparison[],
  winner: string | null,
  verdict: ExperimentResults['verdict'],
  controlName: string,
): string {
  const metric = experiment.primary_metric;
  const points = (x: number | null): string =>
    x === null
      ? 'n/a'
      : metric === 'pass_rate'
        ? `${(x * 100).toFixed(1)} points`
        : metric === 'latency_ms'
          ? `${x.toFixed(0)} ms`
          : `${x.toFixed(5)} USD`;
  if (winner) {
    const c = comparisons.find((x) => x.variant === winner)!;
    const noData = c.guardrails.filter((g) => g.status === 'no_data').map((g) => g.metric);
    const change =
      metric === 'pass_rate'
        ? `pass rate ${points(c.difference.estimate)} above`
        : `${metric} ${points(-(c.difference.estimate ?? 0))} below`;
    return (
      `Adopt "${winner}": ${change} "${controlName}" ` +
      `(interval ${points(c.difference.lower)} to ${points(c.difference.upper)}) with its guardrails held` +
      (noData.length > 0 ? `; no data for guardrail ${noData.join(', ')}` : '') +
      '.'
    );
  }
  const blocked = comparisons.filter((c) => c.decision === 'better');
  if (blocked.length > 0) {
    const g = blocked[0]!.guardrails.filter((x) => x.status === 'failed' || x.status === 'inconclusive');
    return `"${blocked[0]!.variant}" improves ${metric} but guardrail ${g.map((x) => `${x.metric} (${x.status})`).join(', ')} holds it back: keep "${controlName}".`;
  }
  if (verdict === 'no_winner') return `No variant beat "${controlName}" at alpha ${experiment.alpha}: keep "${controlName}".`;
  const smallest = Math.min(...comparisons.map((c) => c.paired_cases));
  if (experiment.method !== 'sequential' && smallest < experiment.minimum_sample_size)
    return `Keep running: ${smallest} of the ${experiment.minimum_sample_size} paired cases needed for ${Math.round(experiment.power * 100)}% power are in.`;
  return 'Keep running: no variant has a decision yet.';
}
