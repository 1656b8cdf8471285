export { ChangeLog, type ChangeLogEntry, type ChangeLogOptions, type FeedDocument } from './changeLog.js';
export { DocumentContainers, type DocumentContainersOptions, type StoredDocument } from './documentContainers.js';
export { DocumentConflictError, DocumentNotFoundError, DocumentStoreError, PreconditionFailedError } from './documentErrors.js';
export { ChangeFeedTriggerHost, type ChangeFeedTriggerHostOptions } from './changeFeedTriggerHost.js';
export type { FailedBatch } from './leaseStore.js';
export type { PartitionKeyPaths } from './partitionKey.js';
export { DEFAULT_FEED_RETRY, type FeedRetryPolicy } from './retryPolicy.js';
