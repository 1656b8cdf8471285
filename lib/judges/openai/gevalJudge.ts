import { contentHash, DEFAULT_JUDGE_CRITERIA, type JudgeCriterion } from '../../domain/index.js';
import { type CriterionVerdict, type Judge, JudgeError, type JudgeInput, type JudgeOptions, type JudgeVerdict } from '../../ports/index.js';
import type { JudgeCache } from '../judgeCache.js';
import { resolveCompletionSettings, type OpenAIModelOptions } from './modelOptions.js';
import { buildCriterionMessages, CRITERION_JSON_SCHEMA, CriterionReplySchema, GEVAL_SCHEMA_VERSION } from './gevalPrompt.js';
import { weightedScore } from './gevalWeighting.js';
import { requestStructured, type CompletionSettings } from './structuredCompletion.js';

export interface GEvalJudgeOptions extends OpenAIModelOptions {
  /** the rubric criteria (default DEFAULT_JUDGE_CRITERIA) */
  criteria?: readonly JudgeCriterion[];
  /** ask for log-probabilities and weight the score by them (default true) */
  logprobs?: boolean;
  cache?: JudgeCache;
  name?: string;
}

/** Alternatives per token asked for (the API's maximum is 20; 5 covers the five scores). */
const TOP_LOGPROBS = 5;

/** The id of a rubric: the content hash of its criteria (names, descriptions, anchors, weights). */
export function rubricIdOf(criteria: readonly JudgeCriterion[]): string {
  return contentHash({ criteria, schema_version: GEVAL_SCHEMA_VERSION }).slice(0, 16);
}

/**
 * G-Eval (Liu et al. 2023) over OpenAI / Azure OpenAI chat completions: each criterion is its own request (run
 * concurrently) asking for a step-by-step analysis and then an integer score 1-5 (structured output). When the
 * reply carries log-probabilities, the criterion's score is the probability-weighted mean over 1-5; otherwise the
 * integer. The semantic score is the weight-averaged criterion score mapped to 0-1 ((s - 1) / 4); confidence is the
 * mean probability mass the model put on the scores (0.5 when no log-probabilities came back).
 * A criterion that fails after retries fails the verdict (JudgeError): a partial rubric is not a score.
 */
export class GEvalJudge implements Judge {
  readonly method = 'llm' as const;
  readonly name: string;
  readonly model: string;
  readonly criteria: readonly JudgeCriterion[];
  readonly rubricId: string;
  readonly #settings: CompletionSettings;
  readonly #cache: JudgeCache | undefined;
  readonly #logprobs: boolean;

  constructor(options: GEvalJudgeOptions) {
    this.#settings = resolveCompletionSettings(options);
    this.model = options.model;
    this.criteria = options.criteria?.length ? options.criteria : DEFAULT_JUDGE_CRITERIA;
    this.rubricId = rubricIdOf(this.criteria);
    this.name = options.name ?? `geval:${options.model}`;
    this.#cache = options.cache;
    this.#logprobs = options.logprobs ?? true;
  }

  async judge(input: JudgeInput, options: JudgeOptions = {}): Promise<JudgeVerdict> {
    if (!input.expected_answer?.trim() && input.expected_facts.length === 0) {
      throw new JudgeError('nothing to judge against: the case has no expected answer and no expected facts', { reason: 'no_reference' });
    }
    const requests = this.criteria.map((criterion) => ({ criterion, messages: buildCriterionMessages(input, criterion) }));
    const key = contentHash({
      model: this.model,
      requests: requests.map((r) => r.messages),
      logprobs: this.#logprobs,
      schema_version: GEVAL_SCHEMA_VERSION,
    });
    const hit = await this.#cache?.get(key);
    if (hit) {
      const { notes: _notes, ...rest } = hit;
      return { ...rest, cached: true, input_tokens: 0, output_tokens: 0, cost_usd: 0 };
    }

    const settled = await Promise.allSettled(requests.map((r) => this.#scoreCriterion(r.criterion, r.messages, options.abortSignal)));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      const spent = settled.reduce(
        (acc, s) => {
          const v = s.status === 'fulfilled' ? s.value.verdict : (s.reason as Partial<JudgeError>);
          return {
            input_tokens: acc.input_tokens + (v.input_tokens ?? 0),
            output_tokens: acc.output_tokens + (v.output_tokens ?? 0),
            cost_usd: acc.cost_usd + (v.cost_usd ?? 0),
          };
        },
        { input_tokens: 0, output_tokens: 0, cost_usd: 0 },
      );
      const error = failed.reason as unknown;
      if (!(error instanceof JudgeError)) throw error;
      throw new JudgeError(error.message, {
        reason: error.reason,
        attempts: error.attempts,
        ...(error.status === undefined ? {} : { status: error.status }),
        cause: error,
        ...spent,
      });
    }
    const scored = settled.map(
      (s) => (s as PromiseFulfilledResult<{ verdict: CriterionVerdict; mass: number | null; model: string; notes: string[] }>).value,
    );
    const criteria = scored.map((s) => s.verdict);
    const totalWeight = criteria.reduce((sum, c) => sum + c.weight, 0);
    const mean = criteria.reduce((sum, c) => sum + c.weight * c.score, 0) / totalWeight;
    const masses = scored.map((s) => s.mass).filter((m): m is number => m !== null);
    const verdict: JudgeVerdict = {
      score: Math.min(1, Math.max(0, (mean - 1) / 4)),
      reasoning: criteria.map((c) => `${c.name} ${c.score.toFixed(2)}/5: ${c.reasoning}`).join('\n'),
      confidence: masses.length === criteria.length ? masses.reduce((a, b) => a + b, 0) / masses.length : 0.5,
      model: scored[0]!.model,
      input_tokens: criteria.reduce((sum, c) => sum + c.input_tokens, 0),
      output_tokens: criteria.reduce((sum, c) => sum + c.output_tokens, 0),
      cost_usd: criteria.reduce((sum, c) => sum + c.cost_usd, 0),
      cached: false,
      method: 'llm',
      criteria,
      rubric_id: this.rubricId,
      ...(scored.some((s) => s.notes.length) ? { notes: [...new Set(scored.flatMap((s) => s.notes))] } : {}),
    };
    await this.#cache?.set(key, verdict);
    return verdict;
  }

  async #scoreCriterion(
    criterion: JudgeCriterion,
    messages: ReturnType<typeof buildCriterionMessages>,
    abortSignal: AbortSignal | undefined,
  ): Promise<{ verdict: CriterionVerdict; mass: number | null; model: string; notes: string[] }> {
    const reply = await requestStructured(
      this.#settings,
      {
        model: this.model,
        messages,
        schemaName: `criterion_${criterion.name}`,
        jsonSchema: CRITERION_JSON_SCHEMA,
        replySchema: CriterionReplySchema,
        ...(this.#logprobs ? { topLogprobs: TOP_LOGPROBS } : {}),
      },
      abortSignal,
    );
    const weighted = this.#logprobs ? weightedScore(reply.content, reply.logprobs) : null;
    const verdict: CriterionVerdict = {
      name: criterion.name,
      score: weighted ? Math.min(5, Math.max(1, weighted.score)) : reply.value.score,
      integer_score: reply.value.score,
      method: weighted ? 'logprobs' : 'integer',
      ...(weighted ? { probabilities: weighted.probabilities } : {}),
      reasoning: reply.value.analysis,
      weight: criterion.weight,
      input_tokens: reply.input_tokens,
      output_tokens: reply.output_tokens,
      cost_usd: reply.cost_usd,
    };
    return { verdict, mass: weighted?.mass ?? null, model: reply.model, notes: reply.notes };
  }
}
