/**
 * Orchestration history events in the wire shape the durable-functions replay reads (PascalCase fields, as the
 * Durable Task Framework serialises them), with the constructors the hub uses and their JSON round trip.
 */

/** DurableTask.Core's EventType numbers (durable-functions' HistoryEventType). */
export const EventType = {
  ExecutionStarted: 0,
  ExecutionCompleted: 1,
  ExecutionFailed: 2,
  ExecutionTerminated: 3,
  TaskScheduled: 4,
  TaskCompleted: 5,
  TaskFailed: 6,
  SubOrchestrationInstanceCreated: 7,
  SubOrchestrationInstanceCompleted: 8,
  SubOrchestrationInstanceFailed: 9,
  TimerCreated: 10,
  TimerFired: 11,
  OrchestratorStarted: 12,
  OrchestratorCompleted: 13,
  EventSent: 14,
  EventRaised: 15,
  ContinueAsNew: 16,
} as const;
export type EventTypeNumber = (typeof EventType)[keyof typeof EventType];

/** Structured failure details (durable-functions' FailureDetailsPayload); sets TaskFailedError on the SDK side. */
export interface FailureDetails {
  ErrorType: string;
  ErrorMessage: string;
  StackTrace?: string;
  IsNonRetriable?: boolean;
  Properties?: Record<string, unknown>;
}

/** One history event. Which optional fields are set depends on EventType (see the constructors below). */
export interface HistoryEvent {
  EventType: EventTypeNumber;
  EventId: number;
  IsPlayed: boolean;
  Timestamp: Date;
  /** ExecutionStarted / TaskScheduled / SubOrchestrationInstanceCreated / EventRaised. */
  Name?: string;
  /** JSON text: ExecutionStarted, SubOrchestrationInstanceCreated and EventRaised inputs. */
  Input?: string;
  /** JSON text: TaskCompleted / SubOrchestrationInstanceCompleted / ExecutionCompleted results. */
  Result?: string;
  TaskScheduledId?: number;
  TimerId?: number;
  FireAt?: Date;
  Reason?: string;
  Details?: string;
  FailureDetails?: FailureDetails;
  InstanceId?: string;
  OrchestrationStatus?: string;
}

type EventFields = Omit<HistoryEvent, 'EventType' | 'EventId' | 'IsPlayed' | 'Timestamp'>;

function event(type: EventTypeNumber, at: Date, fields: EventFields = {}, eventId = -1): HistoryEvent {
  return { EventType: type, EventId: eventId, IsPlayed: false, Timestamp: at, ...fields };
}

/**
 * JSON text for a value (undefined becomes null: the replay JSON.parses every result and input). Throws a TypeError
 * for values JSON cannot hold (BigInt, cycles).
 */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value) ?? 'null';
}

export const historyEvent = {
  orchestratorStarted: (at: Date) => event(EventType.OrchestratorStarted, at),
  executionStarted: (at: Date, name: string, inputJson: string) => event(EventType.ExecutionStarted, at, { Name: name, Input: inputJson }),
  executionCompleted: (at: Date, status: string, resultJson: string) =>
    event(EventType.ExecutionCompleted, at, { OrchestrationStatus: status, Result: resultJson }),
  executionTerminated: (at: Date, reason: string) => event(EventType.ExecutionTerminated, at, { Input: toJsonText(reason) }),
  taskScheduled: (at: Date, id: number, name: string) => event(EventType.TaskScheduled, at, { Name: name }, id),
  taskCompleted: (at: Date, taskScheduledId: number, resultJson: string) =>
    event(EventType.TaskCompleted, at, { TaskScheduledId: taskScheduledId, Result: resultJson }),
  taskFailed: (at: Date, taskScheduledId: number, reason: string, details: string, failureDetails?: FailureDetails) =>
    event(EventType.TaskFailed, at, {
      TaskScheduledId: taskScheduledId,
      Reason: reason,
      Details: details,
      ...(failureDetails ? { FailureDetails: failureDetails } : {}),
    }),
  subOrchestrationCreated: (at: Date, id: number, name: string, instanceId: string) =>
    event(EventType.SubOrchestrationInstanceCreated, at, { Name: name, InstanceId: instanceId }, id),
  subOrchestrationCompleted: (at: Date, taskScheduledId: number, resultJson: string) =>
    event(EventType.SubOrchestrationInstanceCompleted, at, { TaskScheduledId: taskScheduledId, Result: resultJson }),
  subOrchestrationFailed: (at: Date, taskScheduledId: number, reason: string, details: string) =>
    event(EventType.SubOrchestrationInstanceFailed, at, { TaskScheduledId: taskScheduledId, Reason: reason, Details: details }),
  timerCreated: (at: Date, id: number, fireAt: Date) => event(EventType.TimerCreated, at, { FireAt: fireAt }, id),
  timerFired: (at: Date, timerId: number, fireAt: Date) => event(EventType.TimerFired, at, { TimerId: timerId, FireAt: fireAt }),
  eventRaised: (at: Date, name: string, inputJson: string) => event(EventType.EventRaised, at, { Name: name, Input: inputJson }),
};

/** JSON text of an event (Dates as ISO strings). */
export function serializeEvent(e: HistoryEvent): string {
  return JSON.stringify(e);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses a stored event, restoring its Dates; throws on text that is not a stored event (a corrupt database). */
export function reviveEvent(json: string, isPlayed: boolean): HistoryEvent {
  const parsed: unknown = JSON.parse(json);
  if (!isRecord(parsed) || typeof parsed.EventType !== 'number' || typeof parsed.Timestamp !== 'string') {
    throw new Error(`Corrupt task hub row: not a history event: ${json.slice(0, 200)}`);
  }
  const revived = parsed as unknown as HistoryEvent & { Timestamp: string | Date; FireAt?: string | Date };
  revived.Timestamp = new Date(revived.Timestamp);
  if (typeof revived.FireAt === 'string') revived.FireAt = new Date(revived.FireAt);
  revived.IsPlayed = isPlayed;
  return revived;
}
