export { RecordedApiProvider, type RecordedApiProviderOptions, type RecordingMode } from './recordedApiProvider.js';
export { ExpectedDataProvider } from './expectedDataProvider.js';
export {
  runExecutionStage,
  DEFAULT_RELATIVE_TOLERANCE,
  DEFAULT_MAX_CONCURRENCY,
  type CallAssignment,
  type ExecutionStageOptions,
  type ExecutionStageOutput,
} from './runExecutionStage.js';
export type { ExecutionCallDetail, ExecutionDetails, ExecutedCall } from './executionDetails.js';
export { describeDiffEntry } from './executionDetails.js';
export {
  runStatefulStage,
  type ConversationTurnContext,
  type EarlierTurn,
  type StatefulDetails,
  type StatefulStageOutput,
} from './statefulStage.js';
export { replayGold, replayConversationGold, invalidCaseReason, type GoldReplay, type GoldReplayOutcome } from './goldReplay.js';
