/** Orchestration, activity and event names, declared once (DESIGN §11.7). */
export const ORCHESTRATOR_RUN_EVALUATION = 'runEvaluation';
export const ACTIVITY_PLAN_RUN = 'planRun';
export const ACTIVITY_ENQUEUE_SHARD = 'enqueueShard';
export const ACTIVITY_FINALIZE_RUN = 'finalizeRun';
export const EVENT_RUN_COMPLETED = 'RunCompleted';
export const EVENT_CANCEL = 'Cancel';
