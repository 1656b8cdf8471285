export { runLogicStage, type LogicStageOptions, type LogicStageOutput } from './runLogicStage.js';
export { compareCalls, type CallComparison, type CallPair, type CompareCallsOptions } from './compareCalls.js';
export { maximizeOrderedAlignment } from './orderedAlignment.js';
export { logicErrorCode, type LogicErrorCode } from './errorCode.js';
export { logicMessage } from './message.js';
export { toolParameterSchemas } from './toolSchemas.js';
