export { dueTriggeredRuns } from './dueTriggeredRuns.js';
export { modelVersionTriggers } from './modelVersionTrigger.js';
export { newCaseRunIds } from './newCaseTrigger.js';
export { compareVersions } from './catalogVersionTrigger.js';
export { emptyTriggerResult, triggerOf, triggerRunId, type TriggerCheckResult } from './triggerRun.js';
