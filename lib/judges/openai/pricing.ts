/** USD per million tokens. */
export interface ModelPricing {
  inputPerMTok: number;
  outputPerMTok: number;
}

/**
 * OpenAI list prices (standard tier, USD per 1M tokens) as published in mid-2025. Azure OpenAI global
 * deployments charge the same. Cached-input discounts and batch prices are not modelled (cost is an upper bound).
 * Pass explicit `pricing` to a judge when these are stale or the deployment is priced differently.
 */
export const MODEL_PRICING = {
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  'o3-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
} as const satisfies Record<string, ModelPricing>;

const DATED_SNAPSHOT = /^-\d{4}-\d{2}-\d{2}$/;

/** The table's price for a model name or one of its dated snapshots (`gpt-4o-2024-08-06`); undefined if unknown. */
export function lookupModelPricing(model: string): ModelPricing | undefined {
  const name = model.trim().toLowerCase();
  const table: Record<string, ModelPricing> = MODEL_PRICING;
  const exact = table[name];
  if (exact) return exact;
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (name.startsWith(key) && DATED_SNAPSHOT.test(name.slice(key.length)) && (!best || key.length > best.length)) {
      best = key;
    }
  }
  return best === undefined ? undefined : table[best];
}

export interface CostEstimate {
  cost_usd: number;
  /** set when no price was known and the cost is reported as 0 */
  note?: string;
}

/**
 * Cost of one or more calls. Explicit pricing wins; otherwise the configured model name, then the model name the
 * API reported (Azure deployments have arbitrary names but report the underlying model) are looked up.
 */
export function estimateCost(args: {
  model: string;
  responseModel?: string | undefined;
  inputTokens: number;
  outputTokens: number;
  pricing?: ModelPricing | undefined;
}): CostEstimate {
  const price = args.pricing ?? lookupModelPricing(args.model) ?? (args.responseModel ? lookupModelPricing(args.responseModel) : undefined);
  if (!price) {
    const reported = args.responseModel && args.responseModel !== args.model ? ` (reported as "${args.responseModel}")` : '';
    return {
      cost_usd: 0,
      note: `no price known for model "${args.model}"${reported}: cost reported as 0; pass explicit pricing to the judge`,
    };
  }
  return { cost_usd: (args.inputTokens * price.inputPerMTok + args.outputTokens * price.outputPerMTok) / 1_000_000 };
}
