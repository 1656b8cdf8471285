import type { JsonObject } from '../../../../lib/domain/index.js';
import { caseId } from '../gold.js';
import type { Prng } from '../prng.js';
import type { CaseSpec } from '../scenarios/types.js';
import type { World } from '../world/types.js';
import { answerText, recordedResults } from './answers.js';
import type { Behaviour, IntendedVerdict } from './behaviour.js';
import type { ModelProfile } from './profiles.js';
import { emittedCalls, renderAnthropic, renderOpenAi } from './render.js';
import { usageOf } from './usage.js';

/** One line of outputs-model-*.jsonl, the replay target's input. */
export interface OutputLine {
  test_case_id: string;
  output: JsonObject;
  latency_ms: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  model: string;
}

/** One line of annotations.jsonl: what the model was made to do on a case and the verdict that should follow. */
export interface Annotation {
  test_case_id: string;
  model: ModelProfile['id'];
  category: string;
  outcome: Behaviour['outcome'];
  label: Behaviour['label'];
  /** under the default coercion policy */
  intended: IntendedVerdict;
  /** under the strict policy (differs from `intended` only for tolerated deviations) */
  intended_strict: IntendedVerdict;
}

export function buildOutputs(
  profile: ModelProfile,
  specs: readonly CaseSpec[],
  plan: readonly Behaviour[],
  world: World,
  rng: Prng,
): { lines: OutputLine[]; annotations: Annotation[] } {
  const lines: OutputLine[] = [];
  const annotations: Annotation[] = [];
  specs.forEach((spec, i) => {
    const behaviour = plan[i]!;
    const caseRng = rng.fork(`case/${i}`);
    const answer = answerText(spec, behaviour, profile, world, caseRng.fork('answer'));
    const calls = emittedCalls(behaviour);
    const usage = usageOf(profile, spec.question, calls, recordedResults(world, calls), answer, caseRng.fork('usage'));
    const output =
      profile.format === 'openai'
        ? renderOpenAi(behaviour, answer, caseRng.fork('ids'))
        : renderAnthropic(behaviour, answer, profile, usage, caseRng.fork('ids'));
    lines.push({ test_case_id: caseId(i), output, ...usage, model: profile.model });
    annotations.push({
      test_case_id: caseId(i),
      model: profile.id,
      category: spec.category,
      outcome: behaviour.outcome,
      label: behaviour.label,
      intended: behaviour.intended,
      intended_strict: behaviour.intendedStrict ?? behaviour.intended,
    });
  });
  return { lines, annotations };
}
