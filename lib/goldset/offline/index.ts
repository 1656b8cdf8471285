export { parseToolCatalog } from './catalogFile.js';
export { readOutputsFile, parseOutputLine, type OutputLine } from './outputsFile.js';
export { loadGoldSet, catalogKey, GoldSetError, type GoldSet, type GoldFormat } from './goldSet.js';
export { scoreOutputs, type ScoredLine, type ScoreOutputsOptions } from './scoreOutputs.js';
