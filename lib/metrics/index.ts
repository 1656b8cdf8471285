export { tokenize13a } from './tokenize13a.js';
export { bleuStatistics, computeBleu, corpusBleu, sentenceBleu, type BleuScore, type BleuStatistics } from './bleu.js';
export { chrfStatistics, chrfFromStatistics, corpusChrf, sentenceChrf, type ChrfOptions } from './chrf.js';
export { rougeLScore, rougeN, rougeTokens, type RougeResult } from './rouge.js';
export { cosineSimilarity } from './cosine.js';
