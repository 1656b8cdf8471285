export { SqliteQueueEngine } from './queueEngine.js';
export { QueueTriggerHost, type QueueTriggerHostOptions } from './queueTriggerHost.js';
export type { QueueTriggerSettings } from './queueTriggerSettings.js';
export { singleMessageMetadata, batchMetadata } from './triggerMetadata.js';
export {
  DEAD_LETTER_REASONS,
  type AbandonOptions,
  type ApplicationProperties,
  type DeadLetteredMessage,
  type DeadLetterOptions,
  type OutboundMessage,
  type CorrelationCounts,
  type QueueCounts,
  type QueueEngineOptions,
  type ReceivedMessage,
  type ReceiveOptions,
  type SendResult,
  type SettleBatch,
  type SettleResult,
} from './types.js';
export { KeyedListeners } from './keyedListeners.js';
export { nonEmptyString, wholeNumberOption } from './validation.js';
export { WakeSignal } from './wakeSignal.js';
