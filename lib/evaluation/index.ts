// The public surface of lib/evaluation: other folders import it from here.
export { evaluateCase } from './pipeline/evaluateCase.js';
export type { PipelineDeps } from './pipeline/evaluateCase.js';
export { CatalogValidator, ToolSchemaError } from './syntax/validation/catalogValidators.js';
export { parseToolCalls } from './syntax/parseToolCalls.js';
export { describeDiffEntry } from './execution/executionDetails.js';
export { ExpectedDataProvider } from './execution/expectedDataProvider.js';
export { invalidCaseReason, replayConversationGold, replayGold, runStatefulStage } from './execution/index.js';
export { RecordedApiProvider } from './execution/recordedApiProvider.js';
export type { CaseState } from './pipeline/caseState.js';
export { finishCase, startCase, startFailedCase } from './pipeline/steps.js';
export { runExecution, runSemantics } from './pipeline/laterStages.js';
export { nextStage } from './pipeline/caseState.js';
export { SummaryAccumulator, formatSummary } from './pipeline/summary.js';
export { REASON_PASS_THRESHOLD, agentMatches, scoreReason } from './logic/routing.js';
export { findFloatLiteralPaths, mayContainFloatLiteral, validateCalls } from './syntax/index.js';
export { bfclVerdict, bfclLanguageOf, compatVerdictOf, possibleCalls, standardizeString } from './bfclCompat/index.js';
export type { AstCheck, DecodedOutput } from './bfclCompat/index.js';
