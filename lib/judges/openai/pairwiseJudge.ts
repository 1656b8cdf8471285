import {
  JudgeError,
  type JudgeOptions,
  type PairwiseInput,
  type PairwisePass,
  type PairwiseResult,
  type PairwiseWinner,
} from '../../ports/index.js';
import { resolveCompletionSettings, type OpenAIModelOptions } from './modelOptions.js';
import { buildPairwiseMessages, PAIRWISE_JSON_SCHEMA, PairwiseReplySchema, type PairwiseReply } from './pairwisePrompt.js';
import { requestStructured, type CompletionSettings, type StructuredReply } from './structuredCompletion.js';

/**
 * Compares two answers with an LLM, asking twice with the positions swapped (A first, then B first) to cancel
 * position bias. Verdicts that do not survive the swap are reported as a tie with consistent=false.
 * The two requests run concurrently; there is no cache.
 */
export class PairwiseJudge {
  readonly name: string;
  readonly model: string;
  readonly #settings: CompletionSettings;

  constructor(options: OpenAIModelOptions & { name?: string }) {
    this.#settings = resolveCompletionSettings(options);
    this.model = options.model;
    this.name = options.name ?? `openai-pairwise:${options.model}`;
  }

  async compare(input: PairwiseInput, options: JudgeOptions = {}): Promise<PairwiseResult> {
    const ask = (first: string, second: string) =>
      requestStructured(
        this.#settings,
        {
          model: this.model,
          messages: buildPairwiseMessages({ question: input.question, reference: input.reference, first, second }),
          schemaName: 'pairwise_verdict',
          jsonSchema: PAIRWISE_JSON_SCHEMA,
          replySchema: PairwiseReplySchema,
        },
        options.abortSignal,
      );
    const settled = await Promise.allSettled([ask(input.answerA, input.answerB), ask(input.answerB, input.answerA)]);
    const [ab, ba] = settled;
    if (ab.status === 'rejected' || ba.status === 'rejected') throw combineFailure(settled);

    const passes: [PairwisePass, PairwisePass] = [toPass('AB', ab.value.value), toPass('BA', ba.value.value)];
    const consistent = passes[0].winner === passes[1].winner;
    return {
      winner: consistent ? passes[0].winner : 'tie',
      scoreA: (passes[0].scoreA + passes[1].scoreA) / 2,
      scoreB: (passes[0].scoreB + passes[1].scoreB) / 2,
      consistent,
      reasoning: `A shown first: ${passes[0].reasoning}\nB shown first: ${passes[1].reasoning}`,
      passes,
      model: ab.value.model,
      input_tokens: ab.value.input_tokens + ba.value.input_tokens,
      output_tokens: ab.value.output_tokens + ba.value.output_tokens,
      cost_usd: ab.value.cost_usd + ba.value.cost_usd,
    };
  }
}

/** Map a reply about (answer_1, answer_2) back to A/B given which was shown first. */
export function toPass(order: 'AB' | 'BA', reply: PairwiseReply): PairwisePass {
  const aIsFirst = order === 'AB';
  const winner: PairwiseWinner = reply.winner === 'tie' ? 'tie' : (reply.winner === '1') === aIsFirst ? 'A' : 'B';
  return {
    order,
    winner,
    scoreA: aIsFirst ? reply.score_1 : reply.score_2,
    scoreB: aIsFirst ? reply.score_2 : reply.score_1,
    reasoning: reply.reasoning,
  };
}

/** The error to throw when a pass failed: a JudgeError carrying the tokens both passes spent, or a foreign error as is. */
function combineFailure(settled: PromiseSettledResult<StructuredReply<PairwiseReply>>[]): unknown {
  const failures = settled.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
  const foreign = failures.find((reason) => !(reason instanceof JudgeError));
  if (foreign !== undefined) return foreign;
  const first = failures[0] as JudgeError;
  const spent = settled.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as JudgeError)));
  const sum = (pick: (s: { input_tokens: number; output_tokens: number; cost_usd: number; attempts: number }) => number) =>
    spent.reduce((total, s) => total + pick(s), 0);
  return new JudgeError(`pairwise comparison failed: ${first.message}`, {
    reason: first.reason,
    attempts: sum((s) => s.attempts),
    ...(first.status === undefined ? {} : { status: first.status }),
    input_tokens: sum((s) => s.input_tokens),
    output_tokens: sum((s) => s.output_tokens),
    cost_usd: sum((s) => s.cost_usd),
    cause: first,
  });
}
