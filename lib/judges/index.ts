export { LruJudgeCache } from './judgeCache.js';
export type { JudgeCache } from './judgeCache.js';
export { createJudge, DEFAULT_OPENAI_JUDGE_MODEL } from './createJudge.js';
export type { CreateJudgeOptions } from './createJudge.js';
export {
  LocalReferenceJudge,
  LOCAL_REFERENCE_JUDGE_NAME,
  LOCAL_REFERENCE_WEIGHTS,
  MAX_HEURISTIC_CONFIDENCE,
  scoreAgainstReference,
} from './localReference/localReferenceJudge.js';
export type { LocalReferenceScore } from './localReference/localReferenceJudge.js';
export { rougeL, lcsLength } from './localReference/rougeL.js';
export type { RougeScore } from './localReference/rougeL.js';
export { OpenAIJudge } from './openai/openaiJudge.js';
export type { OpenAIJudgeOptions } from './openai/openaiJudge.js';
export { PairwiseJudge } from './openai/pairwiseJudge.js';
export type { OpenAIModelOptions } from './openai/modelOptions.js';
export { createJudgeClient, JudgeConfigurationError, OPENAI_SETTINGS } from './openai/openaiClient.js';
export type { JudgeClient, SettingsSource } from './openai/openaiClient.js';
export { MODEL_PRICING, estimateCost, lookupModelPricing } from './openai/pricing.js';
export type { ModelPricing } from './openai/pricing.js';
export { DEFAULT_RUBRIC, VERDICT_JSON_SCHEMA, VERDICT_SCHEMA_VERSION } from './openai/rubricPrompt.js';
