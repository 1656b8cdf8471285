import { type Judge, JudgeError, type JudgeInput, type JudgeOptions, type JudgeVerdict } from '../../ports/index.js';
import { scoreAgainstReference } from '../../metrics/index.js';

export const LOCAL_REFERENCE_JUDGE_NAME = 'local-reference-heuristic';

/**
 * The offline judge of the embedded default. A heuristic, named as one: it checks numbers, key facts and word
 * overlap, not meaning (a paraphrase scores low on ROUGE-L; a negated fact can still count as present).
 */
export class LocalReferenceJudge implements Judge {
  readonly name = LOCAL_REFERENCE_JUDGE_NAME;
  readonly method = 'heuristic' as const;

  async judge(input: JudgeInput, options: JudgeOptions = {}): Promise<JudgeVerdict> {
    if (options.abortSignal?.aborted) {
      throw new JudgeError('judging was aborted', { reason: 'aborted', cause: options.abortSignal.reason });
    }
    const result = scoreAgainstReference(input);
    if (!result) {
      throw new JudgeError('nothing to judge against: the case has no expected answer and no expected facts', { reason: 'no_reference' });
    }
    return {
      score: result.score,
      reasoning: result.reasoning,
      confidence: result.confidence,
      model: LOCAL_REFERENCE_JUDGE_NAME,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      cached: false,
      method: 'heuristic',
    };
  }
}
