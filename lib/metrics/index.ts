export { tokenize13a } from './tokenize13a.js';
export { bleuStatistics, computeBleu, corpusBleu, sentenceBleu, type BleuScore, type BleuStatistics } from './bleu.js';
export { chrfStatistics, chrfFromStatistics, corpusChrf, sentenceChrf, type ChrfOptions } from './chrf.js';
export { rougeLScore, rougeN, rougeTokens, type RougeResult } from './rouge.js';
export { cosineSimilarity } from './cosine.js';
export { LOCAL_REFERENCE_WEIGHTS, MAX_HEURISTIC_CONFIDENCE, scoreAgainstReference, type LocalReferenceScore } from './referenceScore.js';
export { analyseFact, checkAnalysedFact, indexAnswer } from './facts.js';
export { lcsLength, rougeL, type RougeScore } from './rougeL.js';
export { distinctNumbers, extractNumbers, findNumbers, NUMBER_RELATIVE_TOLERANCE, type NumberMention } from './numbers.js';
