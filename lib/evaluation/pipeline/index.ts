export { evaluateCase, type CaseOutput, type PipelineDeps } from './evaluateCase.js';
export { startCase, startFailedCase, runExecution, runSemantics, finishCase, type CaseInput } from './steps.js';
export { nextStage, PENDING, type CaseState } from './caseState.js';
export { decideVerdict, type Verdict } from './passRule.js';
export { toolResultsOf } from './toolResults.js';
export { skippedStage } from './stageResults.js';
export { SummaryAccumulator, formatSummary, type EvaluationSummary, type StagePassRate } from './summary.js';
