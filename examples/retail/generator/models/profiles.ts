import type { CaseCategory } from '../scenarios/types.js';
import type { MistakeKind, ToleratedKind } from './behaviour.js';

export interface ModelProfile {
  /** file suffix and annotation key */
  id: 'model-a' | 'model-b';
  /** what the outputs file records as `model` */
  model: string;
  format: 'openai' | 'anthropic';
  /** USD per million tokens */
  pricing: { input: number; output: number };
  /** per model turn: median latency and log-space spread; plus ms per output token */
  latency: { medianMs: number; sigma: number; perOutputTokenMs: number };
  /** extra input tokens per turn the provider adds for tool use, and how its tokenizer counts text (x chars/4) */
  tokens: { toolOverhead: number; textFactor: number };
  /** share of each category's cases the model gets wrong */
  failRate: Record<CaseCategory, number>;
  /** how often each mistake is chosen (among those that fit the case) */
  mistakeWeights: Partial<Record<MistakeKind, number>>;
  /** per-category overrides of the weights (the planted regression) */
  categoryWeights?: Partial<Record<CaseCategory, Partial<Record<MistakeKind, number>>>>;
  /** chance that a passing case takes one of its benign variants (and parallel calls come out swapped) */
  benignRate: number;
  /** chance that a passing case (not benign) carries a deviation the default policy tolerates, and which */
  toleratedRate: number;
  toleratedWeights: Partial<Record<ToleratedKind, number>>;
}

const COMMON_WEIGHTS: Partial<Record<MistakeKind, number>> = {
  wrong_enum_value: 3,
  invalid_enum_value: 2,
  missing_optional_filter: 3,
  missing_required_argument: 1,
  wrong_date_format: 1,
  off_by_one_date: 2,
  wrong_id: 1,
  wrong_refund_amount: 1,
  wrong_tool: 2,
  hallucinated_extra_call: 2,
  duplicated_call: 1,
  dropped_parallel_call: 2,
  text_instead_of_call: 1,
  wrong_numbers_in_answer: 2,
  answers_out_of_scope: 2,
  call_on_abstention: 3,
};

/** Model A: an OpenAI chat model; concise, occasionally writes integers as floats. */
export const MODEL_A: ModelProfile = {
  id: 'model-a',
  model: 'simulated-model-a',
  format: 'openai',
  pricing: { input: 2.0, output: 8.0 },
  latency: { medianMs: 720, sigma: 0.32, perOutputTokenMs: 9 },
  tokens: { toolOverhead: 0, textFactor: 1 },
  failRate: {
    orders: 0.1,
    products: 0.14,
    inventory: 0.09,
    shipping: 0.11,
    refunds: 0.1,
    support: 0.14,
    analytics: 0.18,
    abstention: 0.11,
  },
  mistakeWeights: COMMON_WEIGHTS,
  benignRate: 0.3,
  toleratedRate: 0.08,
  toleratedWeights: { numeric_string: 2, float_literal_integer: 3, enum_case: 1 },
};

/**
 * Model B: an Anthropic model; a little slower and more talkative, asks for confirmation more often, similar
 * accuracy everywhere except refunds, where it confuses refund reasons, refunds whole orders instead of the amount
 * asked for, and drops the store-credit and no-email instructions (the planted regression: ~90% -> ~60%).
 */
export const MODEL_B: ModelProfile = {
  id: 'model-b',
  model: 'simulated-model-b',
  format: 'anthropic',
  pricing: { input: 3.0, output: 15.0 },
  latency: { medianMs: 790, sigma: 0.35, perOutputTokenMs: 10 },
  tokens: { toolOverhead: 346, textFactor: 1.12 },
  failRate: {
    orders: 0.11,
    products: 0.12,
    inventory: 0.12,
    shipping: 0.11,
    refunds: 0.4,
    support: 0.13,
    analytics: 0.16,
    abstention: 0.14,
  },
  mistakeWeights: { ...COMMON_WEIGHTS, hallucinated_extra_call: 3, text_instead_of_call: 2, wrong_date_format: 0.5 },
  toleratedRate: 0.08,
  toleratedWeights: { numeric_string: 3, enum_case: 1 },
  categoryWeights: {
    refunds: {
      wrong_refund_amount: 5,
      wrong_enum_value: 5,
      missing_optional_filter: 4,
      wrong_tool: 3,
      text_instead_of_call: 1,
      hallucinated_extra_call: 1,
    },
  },
  benignRate: 0.3,
};

export const MODELS = [MODEL_A, MODEL_B] as const;
