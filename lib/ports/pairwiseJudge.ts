/** Pairwise judging: two answers to one question, judged in both orders (position swap). */

export type PairwiseWinner = 'A' | 'B' | 'tie';

export interface PairwiseInput {
  question: string;
  reference?: string;
  answerA: string;
  answerB: string;
}

/** One of the two passes, mapped back to A/B. */
export interface PairwisePass {
  order: 'AB' | 'BA';
  winner: PairwiseWinner;
  scoreA: number;
  scoreB: number;
  reasoning: string;
}

export interface PairwiseResult {
  /** A or B when both passes agree; tie when they agree on a tie or disagree (then consistent=false). */
  winner: PairwiseWinner;
  /** mean of the two passes' grades of each answer */
  scoreA: number;
  scoreB: number;
  /** both passes named the same winner once positions were mapped back */
  consistent: boolean;
  reasoning: string;
  passes: [PairwisePass, PairwisePass];
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

/** What comparePair needs of a pairwise judge (lib/judges PairwiseJudge: both orders asked, verdicts mapped back). */
export interface PairwiseJudgePort {
  readonly model: string;
  compare(input: PairwiseInput, options?: { abortSignal?: AbortSignal }): Promise<PairwiseResult>;
}
