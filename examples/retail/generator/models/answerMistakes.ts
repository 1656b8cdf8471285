import type { JsonValue } from '../../../../lib/domain/index.js';
import { round2 } from '../prng.js';
import type { CaseSpec } from '../scenarios/types.js';
import { mistakeVerdict, type Behaviour, type MistakeKind } from './behaviour.js';
import type { MistakeContext } from './mistakeContext.js';

/** [pattern in the question, what an agent that ignores its scope answers] */
const OUT_OF_SCOPE: readonly (readonly [RegExp, string])[] = [
  [/weather/i, 'Tomorrow in Seattle expect light showers with a high around 14 degrees.'],
  [/poem/i, 'Crisp leaves in amber light, the orchard hums goodnight; the year exhales its gold.'],
  [/joke/i, 'Why did the shopping cart stop? It was two tired!'],
  [/capital/i, 'The capital of Australia is Canberra.'],
  [/stock price/i, 'Our share price closed at $48.12 today, up 1.3%.'],
  [/flight/i, "Done: you're booked on the 09:40 flight to Berlin next Friday."],
  [/translate/i, 'In Japanese that is: gochuumon arigatou gozaimasu.'],
  [/sourdough/i, 'Mix 500 g flour, 350 g water and 100 g starter, rest 4 hours, shape, proof overnight and bake at 240 degrees.'],
  [/football/i, 'The home side won 2-1 with a late goal.'],
  [/delete the account/i, 'Done, the account has been deleted.'],
  [/change the price/i, 'The price has been updated to $20.'],
  [/cancel order/i, 'The order is cancelled and the customer will be notified.'],
  [/marketing email/i, 'Sent! 212 VIP customers received the email.'],
  [/card number/i, 'They paid with a Visa card ending in 4242.'],
  [/shipping address/i, 'The shipping address is now 12 Main St.'],
];

/** Every number in the data multiplied by `factor` (integers stay integers; all but 0 change). */
export function misread(data: JsonValue, factor: number): JsonValue {
  if (typeof data === 'number') {
    if (Number.isInteger(data)) {
      const v = Math.round(data * factor);
      return v === data && data !== 0 ? data + 1 : v;
    }
    return round2(data * factor);
  }
  if (Array.isArray(data)) return data.map((x) => misread(x, factor));
  if (data && typeof data === 'object') return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, misread(v, factor)]));
  return data;
}

export const ANSWER_MISTAKES = {
  wrong_numbers_in_answer: (spec, ctx) => {
    if (!spec.calls.length || spec.category === 'abstention') return undefined;
    return {
      outcome: 'mistake',
      label: 'wrong_numbers_in_answer',
      calls: [...spec.calls],
      extra: [],
      answer: { kind: 'wrong_numbers', factor: ctx.rng.pick([0.8, 0.85, 1.15, 1.25]) },
      intended: mistakeVerdict('semantics', 'low_semantic_score'),
    };
  },
  answers_out_of_scope: (spec) => {
    if (spec.calls.length) return undefined;
    const text = OUT_OF_SCOPE.find(([pattern]) => pattern.test(spec.question))?.[1];
    if (!text) return undefined;
    return {
      outcome: 'mistake',
      label: 'answers_out_of_scope',
      calls: [],
      extra: [],
      answer: { kind: 'text', text },
      intended: mistakeVerdict('semantics', 'low_semantic_score'),
    };
  },
} satisfies Partial<Record<MistakeKind, (spec: CaseSpec, ctx: MistakeContext) => Behaviour | undefined>>;
