import { simulateApi } from '../api/simulateApi.js';
import { recordedData } from '../api/volatile.js';
import type { Prng } from '../prng.js';
import type { CaseSpec, ResultView } from '../scenarios/types.js';
import type { World } from '../world/types.js';
import { misread } from './answerMistakes.js';
import type { Behaviour } from './behaviour.js';
import type { ModelProfile } from './profiles.js';

/** What the recorded API returned to each call the model made (undefined where it made none). */
export function recordedResults(world: World, calls: Behaviour['calls']): (ResultView | undefined)[] {
  return calls.map((c) => {
    if (!c) return undefined;
    const result = simulateApi(world, c);
    return { status: result.status, data: recordedData(result) };
  });
}

const OPENERS = {
  openai: ['', '', '', 'Here is what I found: '],
  anthropic: ["I've checked that for you. ", "Here's what I found. ", '', 'Sure. '],
} as const;
const CLOSERS = {
  openai: [''],
  anthropic: ['', ' Let me know if you need anything else.', ' Is there anything else I can help with?'],
} as const;

/** The model's final answer for its behaviour, in its own voice. */
export function answerText(spec: CaseSpec, behaviour: Behaviour, profile: ModelProfile, world: World, rng: Prng): string {
  const style = behaviour.answer;
  if (style.kind === 'text') return style.text;
  let results = recordedResults(world, behaviour.calls);
  if (style.kind === 'wrong_numbers') results = results.map((r) => r && { status: r.status, data: misread(r.data, style.factor) });
  const body = spec.answer(results, false).sentences.join(' ');
  const opener = rng.pick(OPENERS[profile.format]);
  const closer = rng.pick(CLOSERS[profile.format]);
  // nothing was looked up for an abstention: no "here is what I found"
  return spec.calls.length ? `${opener}${body}${closer}` : `${body}${closer}`;
}
