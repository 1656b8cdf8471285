import { contentHash } from '../../domain/index.js';
import { type Judge, JudgeError, type JudgeInput, type JudgeOptions, type JudgeVerdict } from '../../ports/index.js';
import type { JudgeCache } from '../judgeCache.js';
import { resolveCompletionSettings, type OpenAIModelOptions } from './modelOptions.js';
import { buildRubricMessages, DEFAULT_RUBRIC, VERDICT_JSON_SCHEMA, VERDICT_SCHEMA_VERSION, VerdictReplySchema } from './rubricPrompt.js';
import { requestStructured, type CompletionSettings } from './structuredCompletion.js';

export interface OpenAIJudgeOptions extends OpenAIModelOptions {
  /** Verdicts keyed by content hash of (model, messages, schema version); hits cost nothing. */
  cache?: JudgeCache;
  /** Grading instructions replacing DEFAULT_RUBRIC (the JSON reply instruction is always appended). */
  rubric?: string;
  /** Judge name reported in stage details. Default `openai:<model>`. */
  name?: string;
}

/**
 * An LLM judge over OpenAI or Azure OpenAI chat completions: rubric prompt, structured JSON output
 * (`{reasoning, score, confidence}`), temperature 0, validated with zod, retried with full-jitter backoff.
 */
export class OpenAIJudge implements Judge {
  readonly method = 'llm' as const;
  readonly name: string;
  readonly model: string;
  readonly #settings: CompletionSettings;
  readonly #cache: JudgeCache | undefined;
  readonly #rubric: string;

  constructor(options: OpenAIJudgeOptions) {
    this.#settings = resolveCompletionSettings(options);
    this.model = options.model;
    this.name = options.name ?? `openai:${options.model}`;
    this.#cache = options.cache;
    this.#rubric = options.rubric ?? DEFAULT_RUBRIC;
  }

  async judge(input: JudgeInput, options: JudgeOptions = {}): Promise<JudgeVerdict> {
    if (!input.expected_answer?.trim() && input.expected_facts.length === 0) {
      throw new JudgeError('nothing to judge against: the case has no expected answer and no expected facts', { reason: 'no_reference' });
    }
    const messages = buildRubricMessages(input, this.#rubric);
    const key = contentHash({ model: this.model, messages, schema_version: VERDICT_SCHEMA_VERSION });
    const hit = await this.#cache?.get(key);
    if (hit) return { ...withoutNotes(hit), cached: true, input_tokens: 0, output_tokens: 0, cost_usd: 0 };

    const reply = await requestStructured(
      this.#settings,
      { model: this.model, messages, schemaName: 'semantic_verdict', jsonSchema: VERDICT_JSON_SCHEMA, replySchema: VerdictReplySchema },
      options.abortSignal,
    );
    const verdict: JudgeVerdict = {
      score: reply.value.score,
      reasoning: reply.value.reasoning,
      confidence: reply.value.confidence,
      model: reply.model,
      input_tokens: reply.input_tokens,
      output_tokens: reply.output_tokens,
      cost_usd: reply.cost_usd,
      cached: false,
      method: 'llm',
      ...(reply.notes.length ? { notes: reply.notes } : {}),
    };
    await this.#cache?.set(key, verdict);
    return verdict;
  }
}

function withoutNotes(verdict: JudgeVerdict): JudgeVerdict {
  const { notes: _notes, ...rest } = verdict;
  return rest;
}
