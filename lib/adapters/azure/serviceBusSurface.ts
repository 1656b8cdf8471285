import type { ServiceBusClient } from '@azure/service-bus';

/**
 * The small part of @azure/service-bus the adapters use, as structural types: the real ServiceBusClient satisfies
 * them (checked below at compile time), and the tests' in-memory fake implements them.
 */
export type SbPropertyValue = string | number | boolean | Date | null;

export interface SbMessage {
  body: unknown;
  messageId?: string | number | Buffer;
  correlationId?: string | number | Buffer;
  contentType?: string;
  subject?: string;
  timeToLive?: number;
  applicationProperties?: { [key: string]: SbPropertyValue };
}

export interface SbReceivedMessage extends SbMessage {
  readonly sequenceNumber?: { toString(): string };
  readonly deliveryCount?: number;
  readonly enqueuedTimeUtc?: Date;
  readonly deadLetterReason?: string;
  readonly deadLetterErrorDescription?: string;
  /** what a peek saw: visible ('active'), waiting for its time ('scheduled') or set aside ('deferred') */
  readonly state?: 'active' | 'deferred' | 'scheduled';
}

export interface SbMessageBatch {
  readonly count: number;
  readonly sizeInBytes: number;
  readonly maxSizeInBytes: number;
  tryAddMessage(message: SbMessage): boolean;
}

export interface SbSender {
  createMessageBatch(): Promise<SbMessageBatch>;
  sendMessages(messages: SbMessageBatch | SbMessage | SbMessage[]): Promise<void>;
  scheduleMessages(messages: SbMessage[], scheduledEnqueueTimeUtc: Date): Promise<unknown>;
  close(): Promise<void>;
}

export interface SbReceiver {
  peekMessages(maxMessageCount: number): Promise<SbReceivedMessage[]>;
  receiveMessages(maxMessageCount: number, options?: { maxWaitTimeInMs?: number }): Promise<SbReceivedMessage[]>;
  completeMessage(message: SbReceivedMessage): Promise<void>;
  abandonMessage(message: SbReceivedMessage): Promise<void>;
  close(): Promise<void>;
}

export interface SbReceiverOptions {
  receiveMode?: 'peekLock' | 'receiveAndDelete';
  subQueueType?: 'deadLetter';
}

export interface SbClient {
  createSender(queueName: string): SbSender;
  createReceiver(queueName: string, options?: SbReceiverOptions): SbReceiver;
  close(): Promise<void>;
}

// The real client must stay assignable to the surface (fails to compile if the SDK's shape drifts).
type Assignable<T, U> = [T] extends [U] ? true : false;
const realClientFits: Assignable<ServiceBusClient, SbClient> = true;
void realClientFits;
