import type { FunctionRegistration } from '../registration.js';
import { nonEmptyString, wholeNumberOption } from './validation.js';

/** Per-queue trigger settings (host.json `extensions.serviceBus` in Azure), keyed by queue name in the options. */
export interface QueueTriggerSettings {
  /** 'one' triggers: concurrent invocations per function (Azure's maxConcurrentCalls, default 16). */
  maxConcurrentCalls?: number;
  /** 'many' triggers: messages per invocation at most (Azure's maxMessageBatchSize, default 1000). */
  maxMessageBatchSize?: number;
  /** 'many' triggers: batches in flight per function at once (default 1). */
  maxConcurrentBatches?: number;
  /** Peek-lock duration (default: the engine's lockDurationMs). */
  lockDurationMs?: number;
  /** 'one' triggers: how long a running invocation's lock is kept renewed (Azure's default 5 min). */
  maxAutoLockRenewalDurationMs?: number;
  /** 'many' triggers: messages to gather before invoking, unless maxBatchWaitTimeMs passes first (default 1). */
  minMessageBatchSize?: number;
  /** 'many' triggers: the longest a partial batch waits for minMessageBatchSize (Azure's default 30 s). */
  maxBatchWaitTimeMs?: number;
}

/** Everything a pump needs to know about one registered queue trigger. */
export interface ResolvedQueueTrigger {
  functionName: string;
  queueName: string;
  cardinality: 'one' | 'many';
  /** Units (messages for 'one', batches for 'many') in flight at once. */
  concurrency: number;
  /** Messages per unit: 1 for 'one', maxMessageBatchSize for 'many'. */
  unitSize: number;
  lockDurationMs: number;
  maxAutoLockRenewalDurationMs: number;
  /** 'many': gather at least this many messages (1 for 'one') ... */
  minBatchSize: number;
  /** ... or until a partial batch has waited this long */
  maxBatchWaitTimeMs: number;
}

function readCardinality(value: unknown, functionName: string): 'one' | 'many' {
  if (value === undefined || value === null || value === 'one') return 'one';
  if (value === 'many') return 'many';
  throw new TypeError(`Function "${functionName}": cardinality must be 'one' or 'many', got ${JSON.stringify(value)}.`);
}

/** Validates a serviceBusTrigger registration and merges its queue's settings; bad configuration throws. */
export function resolveQueueTrigger(
  registration: FunctionRegistration,
  settingsByQueue: Record<string, QueueTriggerSettings>,
  defaults: QueueTriggerSettings,
  engineLockDurationMs: number,
): ResolvedQueueTrigger {
  const { name, kind, trigger } = registration;
  if (kind !== 'serviceBusTrigger') throw new TypeError(`Function "${name}" is a ${kind}, not a serviceBusTrigger.`);
  if (trigger.topicName !== undefined)
    throw new TypeError(`Function "${name}": topic subscriptions are not supported by the embedded host.`);
  if (trigger.isSessionsEnabled === true) throw new TypeError(`Function "${name}": sessions are not supported by the embedded host.`);
  if (trigger.sdkBinding === true)
    throw new TypeError(`Function "${name}": sdkBinding (manual settlement) is not supported by the embedded host.`);
  const queueName = nonEmptyString(`Function "${name}": queueName`, trigger.queueName);
  const cardinality = readCardinality(trigger.cardinality, name);
  const s = { ...defaults, ...settingsByQueue[queueName] };
  const label = `queue "${queueName}"`;
  const many = cardinality === 'many';
  const lockDurationMs = wholeNumberOption(`${label} lockDurationMs`, s.lockDurationMs, engineLockDurationMs);
  const unitSize = many ? wholeNumberOption(`${label} maxMessageBatchSize`, s.maxMessageBatchSize, 1000) : 1;
  const minBatchSize = many ? wholeNumberOption(`${label} minMessageBatchSize`, s.minMessageBatchSize, 1) : 1;
  if (minBatchSize > unitSize)
    throw new TypeError(`${label}: minMessageBatchSize (${minBatchSize}) must not exceed maxMessageBatchSize (${unitSize}).`);
  const maxBatchWaitTimeMs = wholeNumberOption(`${label} maxBatchWaitTimeMs`, s.maxBatchWaitTimeMs, 30_000, 0);
  if (minBatchSize > 1 && maxBatchWaitTimeMs >= lockDurationMs) {
    throw new TypeError(
      `${label}: maxBatchWaitTimeMs (${maxBatchWaitTimeMs}) must be shorter than the lock duration (${lockDurationMs}): gathered messages stay locked while they wait.`,
    );
  }
  return {
    functionName: name,
    queueName,
    cardinality,
    concurrency: many
      ? wholeNumberOption(`${label} maxConcurrentBatches`, s.maxConcurrentBatches, 1)
      : wholeNumberOption(`${label} maxConcurrentCalls`, s.maxConcurrentCalls, 16),
    unitSize,
    lockDurationMs,
    minBatchSize,
    maxBatchWaitTimeMs,
    maxAutoLockRenewalDurationMs: wholeNumberOption(`${label} maxAutoLockRenewalDurationMs`, s.maxAutoLockRenewalDurationMs, 300_000, 0),
  };
}
