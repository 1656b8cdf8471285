import type { CaseSpec } from '../scenarios/types.js';
import { ANSWER_MISTAKES } from './answerMistakes.js';
import { ARGUMENT_MISTAKES } from './argumentMistakes.js';
import type { Behaviour, MistakeKind } from './behaviour.js';
import { CALL_SET_MISTAKES } from './callSetMistakes.js';
import type { MistakeContext } from './mistakeContext.js';

export type MistakeMaker = (spec: CaseSpec, ctx: MistakeContext) => Behaviour | undefined;

/** The mistake catalogue: each maker returns the faulty behaviour, or undefined when it cannot apply to the case. */
export const MISTAKES = {
  ...ARGUMENT_MISTAKES,
  ...CALL_SET_MISTAKES,
  ...ANSWER_MISTAKES,
} satisfies Record<MistakeKind, MistakeMaker>;
