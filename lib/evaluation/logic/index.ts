export { runLogicStage, type LogicStageOptions, type LogicStageOutput } from './runLogicStage.js';
export { compareCalls, type CompareCallsOptions } from './compareCalls.js';
export type { CallComparison, CallPair, DependencyViolation } from './callComparison.js';
export { maximizeOrderedAlignment } from './orderedAlignment.js';
export { logicErrorCode, type LogicErrorCode } from './errorCode.js';
export { logicMessage } from './message.js';
export { toolParameterSchemas } from './toolSchemas.js';
export { scoreRouting, withRouting } from './routing.js';
export { asksQuestion, checkClarification, type ClarificationExpectation } from './clarification.js';
