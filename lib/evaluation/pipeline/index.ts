export { evaluateCase, type CaseOutput, type PipelineDeps } from './evaluateCase.js';
export { startCase, startFailedCase, finishCase, type CaseInput } from './steps.js';
export { runExecution, runSemantics } from './laterStages.js';
export { nextStage, PENDING, type CaseState } from './caseState.js';
export { decideVerdict, type Verdict } from './passRule.js';
export { toolResultsOf } from './toolResults.js';
export { skippedStage } from './stageResults.js';
export { SummaryAccumulator, formatSummary, type EvaluationSummary, type StagePassRate } from './summary.js';
