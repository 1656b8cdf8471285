import type { FunctionRegistration } from '../registration.js';
import { nonEmptyString, wholeNumberOption } from '../servicebus/index.js';
import { parseFeedRetry, type FeedRetryPolicy } from './retryPolicy.js';

/** Everything a feed pump needs to know about one cosmosDBTrigger registration. */
export interface ResolvedFeedTrigger {
  functionName: string;
  containerName: string;
  /** Checkpoint key: leaseContainerPrefix + function name (one checkpoint per function and container). */
  leaseId: string;
  leaseContainerName: string;
  maxItemsPerInvocation: number;
  startFromBeginning: boolean;
  /** Idle wait between looks at the log when nothing is appended in-process. */
  pollDelayMs: number;
  retry: FeedRetryPolicy;
}

/** Validates a cosmosDBTrigger registration (bad configuration throws). `pollIntervalMs` overrides feedPollDelay. */
export function resolveFeedTrigger(registration: FunctionRegistration, pollIntervalMs?: number): ResolvedFeedTrigger {
  const { name, kind, trigger, metadata } = registration;
  if (kind !== 'cosmosDBTrigger') throw new TypeError(`Function "${name}" is a ${kind}, not a cosmosDBTrigger.`);
  const label = `Function "${name}"`;
  if (trigger.changeFeedMode !== undefined && trigger.changeFeedMode !== 'LatestVersion') {
    throw new TypeError(
      `${label}: changeFeedMode ${JSON.stringify(trigger.changeFeedMode)} is not supported by the embedded host (LatestVersion only).`,
    );
  }
  if (trigger.startFromTime !== undefined) throw new TypeError(`${label}: startFromTime is not supported by the embedded host.`);
  if (trigger.startFromBeginning !== undefined && typeof trigger.startFromBeginning !== 'boolean') {
    throw new TypeError(`${label}: startFromBeginning must be a boolean.`);
  }
  const prefix = trigger.leaseContainerPrefix ?? '';
  if (typeof prefix !== 'string') throw new TypeError(`${label}: leaseContainerPrefix must be a string.`);
  return {
    functionName: name,
    containerName: nonEmptyString(`${label}: containerName`, trigger.containerName ?? trigger.collectionName),
    leaseId: `${prefix}${name}`,
    leaseContainerName:
      trigger.leaseContainerName === undefined ? 'leases' : nonEmptyString(`${label}: leaseContainerName`, trigger.leaseContainerName),
    maxItemsPerInvocation: wholeNumberOption(`${label}: maxItemsPerInvocation`, trigger.maxItemsPerInvocation, 100),
    startFromBeginning: trigger.startFromBeginning === true,
    pollDelayMs: pollIntervalMs ?? wholeNumberOption(`${label}: feedPollDelay`, trigger.feedPollDelay, 5_000),
    retry: parseFeedRetry(metadata.retryOptions ?? trigger.retry, `${label}: retry`),
  };
}
