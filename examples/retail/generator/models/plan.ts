import { canonicalCallKey, type TestCase } from '../../../../lib/domain/index.js';
import { scoreAgainstReference } from '../../../../lib/metrics/index.js';
import type { Prng } from '../prng.js';
import { CASE_CATEGORIES, type Call, type CaseSpec } from '../scenarios/types.js';
import type { World } from '../world/types.js';
import { answerText } from './answers.js';
import { PASS, type Behaviour, type MistakeKind, type ToleratedKind } from './behaviour.js';
import { MISTAKES } from './mistakes.js';
import type { ModelProfile } from './profiles.js';
import { emittedCalls } from './render.js';
import { TOLERATED } from './tolerated.js';

/** An answer-only mistake must fail the judge clearly (the pass threshold is 0.7). */
const WRONG_ANSWER_MAX_SCORE = 0.6;
/** extra selection weight of a case the other model also gets wrong (hard cases are hard for both) */
const SHARED_DIFFICULTY = 2;

export interface PlanInput {
  profile: ModelProfile;
  specs: readonly CaseSpec[];
  cases: readonly TestCase[];
  world: World;
  rng: Prng;
  /** the other model's failing cases, to correlate difficulty */
  hardFor?: ReadonlySet<number>;
}

/**
 * Decides what a model does on every case: which cases it gets wrong (an exact share per category, harder cases
 * more likely), which mistake each carries (weighted, among those that fit), and which passing cases come out in a
 * benign variant (a `$one_of` value, an explicit default, swapped parallel calls, ...).
 */
export function planModel(input: PlanInput): Behaviour[] {
  const { profile, specs, rng } = input;
  const plan: Behaviour[] = specs.map((spec, i) => passing(spec, rng.fork(`benign/${i}`), input));
  const options = new Map<number, [Behaviour, number][]>();
  for (const category of CASE_CATEGORIES) {
    const indexes = specs.flatMap((s, i) => (s.category === category ? [i] : []));
    const target = Math.round(indexes.length * profile.failRate[category]);
    const weights = profile.categoryWeights?.[category] ?? profile.mistakeWeights;
    for (const i of indexes) options.set(i, mistakesFor(input, i, weights));
    const pool = indexes.filter((i) => options.get(i)!.length > 0);
    const chosen = weightedSample(
      rng.fork(`fail/${category}`),
      pool,
      target,
      (i) => specs[i]!.complexity + (input.hardFor?.has(i) ? SHARED_DIFFICULTY : 0),
    );
    for (const i of chosen) plan[i] = rng.fork(`pick/${i}`).weighted(options.get(i)!);
  }
  coverEveryMistake(plan, options);
  coverTolerated(plan, input);
  return plan;
}

/** Each tolerated deviation the model makes shows up at least twice (on clean cases it fits). */
function coverTolerated(plan: Behaviour[], input: PlanInput): void {
  for (const kind of Object.keys(input.profile.toleratedWeights) as ToleratedKind[]) {
    for (let i = 0; i < plan.length && plan.filter((b) => b.label === kind).length < 2; i++) {
      if (plan[i]!.label !== 'clean') continue;
      const behaviour = TOLERATED[kind](input.specs[i]!, {
        world: input.world,
        rng: input.rng.fork(`cover/${i}`),
        format: input.profile.format,
      });
      if (behaviour) plan[i] = behaviour;
    }
  }
}

/**
 * A sample should show the whole mistake catalogue: each mistake the model can make that the draw left out takes
 * over a failing case that fits it from a mistake that occurs more than once (the failing cases stay the same).
 */
function coverEveryMistake(plan: Behaviour[], options: ReadonlyMap<number, [Behaviour, number][]>): void {
  const count = (label: Behaviour['label']): number => plan.filter((b) => b.label === label).length;
  const kinds = new Set([...options.values()].flatMap((list) => list.map(([b]) => b.label)));
  for (const kind of kinds) {
    if (count(kind) > 0) continue;
    const swap = [...options.entries()].find(
      ([i, list]) => plan[i]!.outcome === 'mistake' && count(plan[i]!.label) > 1 && list.some(([b]) => b.label === kind),
    );
    if (swap) plan[swap[0]] = swap[1].find(([b]) => b.label === kind)![0];
  }
}

function mistakesFor(input: PlanInput, index: number, weights: Partial<Record<MistakeKind, number>>): [Behaviour, number][] {
  const spec = input.specs[index]!;
  const testCase = input.cases[index]!;
  const out: [Behaviour, number][] = [];
  for (const [kind, weight] of Object.entries(weights) as [MistakeKind, number][]) {
    if (!(weight > 0)) continue;
    const ctx = { world: input.world, rng: input.rng.fork(`mistake/${index}/${kind}`), format: input.profile.format };
    const behaviour = MISTAKES[kind](spec, ctx);
    if (!behaviour || isAnotherRightAnswer(spec, behaviour)) continue;
    if (behaviour.intended.failing_stage === 'semantics' && !failsJudge(input, spec, testCase, behaviour)) continue;
    out.push([behaviour, weight]);
  }
  return out;
}

/** A "mistake" that happens to be one of the case's accepted answers (dropping the filter of an alternative set). */
function isAnotherRightAnswer(spec: CaseSpec, behaviour: Behaviour): boolean {
  const made = callSetKey(emittedCalls(behaviour));
  return [...(spec.alternatives ?? []), ...(spec.variants ?? [])].some((other) => callSetKey(other.calls) === made);
}

function callSetKey(calls: readonly Call[]): string {
  return calls.map(canonicalCallKey).sort().join('|');
}

/** Answer-only mistakes count only when the case has a reference and the wrong answer clearly fails it. */
function failsJudge(input: PlanInput, spec: CaseSpec, testCase: TestCase, behaviour: Behaviour): boolean {
  if (!testCase.expected_nl_response && testCase.expected_facts.length === 0) return false;
  const answer = answerText(spec, behaviour, input.profile, input.world, input.rng.fork('judge-check'));
  const score = scoreAgainstReference({
    question: testCase.nl_query,
    ...(testCase.expected_nl_response ? { expected_answer: testCase.expected_nl_response } : {}),
    expected_facts: testCase.expected_facts,
    actual_answer: answer,
  });
  return score !== undefined && score.score <= WRONG_ANSWER_MAX_SCORE;
}

/** A right answer: as the gold has it, in a benign variant, or with a deviation the default policy tolerates. */
function passing(spec: CaseSpec, rng: Prng, input: PlanInput): Behaviour {
  const { profile } = input;
  const clean: Behaviour = {
    outcome: 'clean',
    label: 'clean',
    calls: [...spec.calls],
    extra: [],
    answer: { kind: 'from_results' },
    intended: PASS,
  };
  if (!rng.chance(profile.benignRate)) {
    if (!rng.chance(profile.toleratedRate)) return clean;
    const ctx = { world: input.world, rng: rng.fork('tolerated'), format: profile.format };
    const options = (Object.entries(profile.toleratedWeights) as [ToleratedKind, number][]).flatMap(([kind, weight]) => {
      const behaviour = TOLERATED[kind](spec, ctx);
      return behaviour ? [[behaviour, weight] as [Behaviour, number]] : [];
    });
    return options.length ? rng.weighted(options) : clean;
  }
  const swappable = spec.calls.length >= 2;
  const variants = spec.variants ?? [];
  if (variants.length === 0 && !swappable) return clean;
  if (swappable && (variants.length === 0 || rng.chance(0.5))) {
    const order = spec.calls.map((_, i) => i).reverse();
    return { ...clean, outcome: 'benign', label: 'parallel_order_swapped', order };
  }
  const variant = rng.pick(variants);
  return { ...clean, outcome: 'benign', label: variant.label, calls: [...variant.calls] };
}

/** `count` distinct items, each draw proportional to its weight among those left. */
function weightedSample<T>(rng: Prng, items: readonly T[], count: number, weight: (item: T) => number): T[] {
  const left = [...items];
  const out: T[] = [];
  while (out.length < count && left.length > 0) {
    const pick = rng.weighted(left.map((item) => [item, weight(item)] as const));
    out.push(pick);
    left.splice(left.indexOf(pick), 1);
  }
  return out;
}
