import { RETAIL_CATALOG } from '../catalog.js';
import type { Prng } from '../prng.js';
import type { Call, ResultView } from '../scenarios/types.js';
import type { ModelProfile } from './profiles.js';

const SYSTEM_PROMPT_TOKENS = 184;
const TOOL_TOKENS = Math.ceil(JSON.stringify(RETAIL_CATALOG.tools.map(({ http: _http, ...t }) => t)).length / 4);
const PER_CALL_TOKENS = 9;

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  latency_ms: number;
  cost_usd: number;
}

const tokens = (text: string, factor: number): number => Math.ceil((text.length / 4) * factor);

/**
 * What the agent loop cost: turn 1 (system prompt, tools, question) and, when it called tools, turn 2 (turn 1 plus
 * its calls and the API results), at the model's prices; latency per turn is lognormal plus time per output token.
 */
export function usageOf(
  profile: ModelProfile,
  question: string,
  calls: readonly Call[],
  results: readonly (ResultView | undefined)[],
  answer: string,
  rng: Prng,
): Usage {
  const f = profile.tokens.textFactor;
  const turn1 = Math.ceil((SYSTEM_PROMPT_TOKENS + TOOL_TOKENS) * f) + profile.tokens.toolOverhead + tokens(question, f);
  const callTokens = calls.reduce((n, c) => n + PER_CALL_TOKENS + tokens(JSON.stringify(c.arguments), f), 0);
  const resultTokens = results.reduce((n, r) => n + (r ? tokens(JSON.stringify(r.data), f) : 0), 0);
  const answerTokens = tokens(answer, f) + 4;
  const turns = calls.length ? 2 : 1;
  const input = calls.length ? turn1 * 2 + callTokens + resultTokens : turn1;
  const output = callTokens + answerTokens;
  let latency = 0;
  for (let t = 0; t < turns; t++) latency += rng.lognormal(profile.latency.medianMs, profile.latency.sigma);
  latency += output * profile.latency.perOutputTokenMs;
  return {
    input_tokens: input,
    output_tokens: output,
    latency_ms: Math.round(latency),
    cost_usd: Math.round(((input * profile.pricing.input + output * profile.pricing.output) / 1e6) * 1e6) / 1e6,
  };
}
