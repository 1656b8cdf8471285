import { describe, expect, it } from 'vitest';
import { estimateCost, lookupModelPricing, MODEL_PRICING } from './pricing.js';

describe('lookupModelPricing', () => {
  it.each([
    ['gpt-4o', MODEL_PRICING['gpt-4o']],
    ['GPT-4o', MODEL_PRICING['gpt-4o']],
    ['gpt-4o-2024-08-06', MODEL_PRICING['gpt-4o']],
    ['gpt-4o-mini-2024-07-18', MODEL_PRICING['gpt-4o-mini']],
    ['gpt-4.1-mini', MODEL_PRICING['gpt-4.1-mini']],
    ['gpt-4.1-2025-04-14', MODEL_PRICING['gpt-4.1']],
    ['o4-mini-2025-04-16', MODEL_PRICING['o4-mini']],
    ['gpt-4o-audio-preview', undefined],
    ['my-judge-deployment', undefined],
  ])('%s', (model, expected) => {
    expect(lookupModelPricing(model)).toEqual(expected);
  });
});

describe('estimateCost', () => {
  it.each([
    [{ model: 'gpt-4o-mini', inputTokens: 1_000_000, outputTokens: 1_000_000 }, { cost_usd: 0.75 }],
    [{ model: 'deployment', responseModel: 'gpt-4.1-2025-04-14', inputTokens: 500_000, outputTokens: 0 }, { cost_usd: 1 }],
    [{ model: 'gpt-4o', inputTokens: 10, outputTokens: 10, pricing: { inputPerMTok: 1e6, outputPerMTok: 0 } }, { cost_usd: 10 }],
    [
      { model: 'deployment', inputTokens: 10, outputTokens: 10 },
      { cost_usd: 0, note: 'no price known for model "deployment": cost reported as 0; pass explicit pricing to the judge' },
    ],
  ])('%j', (args, expected) => {
    expect(estimateCost(args)).toEqual(expected);
  });
});
