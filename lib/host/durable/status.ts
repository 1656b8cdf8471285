/**
 * The orchestration status as the Durable client receives it (DurableOrchestrationStatus's fields), and the
 * summarised history the extension's status API returns with showHistory (scheduling events folded into their
 * completions, replay bookkeeping left out).
 */
import { EventType, type HistoryEvent } from './historyEvents.js';

export const RUNTIME_STATUSES = ['Pending', 'Running', 'Completed', 'ContinuedAsNew', 'Failed', 'Terminated'] as const;
export type RuntimeStatus = (typeof RUNTIME_STATUSES)[number];

const TERMINAL: ReadonlySet<RuntimeStatus> = new Set<RuntimeStatus>(['Completed', 'Failed', 'Terminated']);

export function isTerminal(status: RuntimeStatus): boolean {
  return TERMINAL.has(status);
}

export function isRuntimeStatus(value: unknown): value is RuntimeStatus {
  return typeof value === 'string' && (RUNTIME_STATUSES as readonly string[]).includes(value);
}

/** One entry of a status history (PascalCase, as the extension returns it). */
export type StatusHistoryEntry = Record<string, unknown> & { EventType: string; Timestamp: string };

export interface DurableStatus {
  name: string;
  instanceId: string;
  runtimeStatus: RuntimeStatus;
  /** null unless showInput (default true). */
  input: unknown;
  /** The orchestrator's return value; the failure message when Failed; the reason when Terminated. */
  output: unknown;
  customStatus: unknown;
  createdTime: string;
  lastUpdatedTime: string;
  history?: StatusHistoryEntry[];
}

export interface StatusOptions {
  showHistory?: boolean;
  showHistoryOutput?: boolean;
  showInput?: boolean;
}

/** The stored row a status is built from. */
export interface InstanceRecord {
  instanceId: string;
  name: string;
  executionId: string;
  status: RuntimeStatus;
  inputJson: string | null;
  outputJson: string | null;
  customStatusJson: string | null;
  parentInstanceId: string | null;
  parentTaskId: number | null;
  parentExecutionId: string | null;
  createdAt: number;
  updatedAt: number;
}

export function parseJsonText(text: string | null | undefined): unknown {
  if (text === null || text === undefined) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const EVENT_NAMES = Object.fromEntries(Object.entries(EventType).map(([name, value]) => [value, name])) as Record<number, string>;

function scheduledFor(event: HistoryEvent, scheduled: ReadonlyMap<number, HistoryEvent>): Record<string, unknown> {
  const origin = event.TaskScheduledId === undefined ? undefined : scheduled.get(event.TaskScheduledId);
  if (!origin) return {};
  return {
    FunctionName: origin.Name,
    ScheduledTime: origin.Timestamp.toISOString(),
    ...(origin.InstanceId ? { InstanceId: origin.InstanceId } : {}),
  };
}

function summarise(event: HistoryEvent, scheduled: ReadonlyMap<number, HistoryEvent>, withOutput: boolean): StatusHistoryEntry | undefined {
  const base = { EventType: EVENT_NAMES[event.EventType] ?? String(event.EventType), Timestamp: event.Timestamp.toISOString() };
  const output = (key: string, json: string | undefined) => (withOutput ? { [key]: parseJsonText(json) } : {});
  switch (event.EventType) {
    case EventType.ExecutionStarted:
      return { ...base, FunctionName: event.Name, ...output('Input', event.Input) };
    case EventType.TaskCompleted:
    case EventType.SubOrchestrationInstanceCompleted:
      return { ...base, ...scheduledFor(event, scheduled), ...output('Result', event.Result) };
    case EventType.TaskFailed:
    case EventType.SubOrchestrationInstanceFailed:
      return { ...base, ...scheduledFor(event, scheduled), Reason: event.Reason, Details: event.Details };
    case EventType.TimerFired:
      return { ...base, FireAt: event.FireAt?.toISOString() };
    case EventType.EventRaised:
      return { ...base, Name: event.Name, ...output('Input', event.Input) };
    case EventType.ExecutionCompleted:
      return { ...base, OrchestrationStatus: event.OrchestrationStatus, ...output('Result', event.Result) };
    case EventType.ExecutionTerminated:
      return { ...base, ...output('Input', event.Input) };
    default:
      return undefined;
  }
}

/** The history the status API shows: completions carry their function name and scheduled time. */
export function statusHistory(history: readonly HistoryEvent[], showHistoryOutput: boolean): StatusHistoryEntry[] {
  const scheduled = new Map<number, HistoryEvent>();
  for (const event of history) {
    if (event.EventType === EventType.TaskScheduled || event.EventType === EventType.SubOrchestrationInstanceCreated) {
      scheduled.set(event.EventId, event);
    }
  }
  return history.flatMap((event) => summarise(event, scheduled, showHistoryOutput) ?? []);
}

export function toDurableStatus(record: InstanceRecord, options: StatusOptions, history?: readonly HistoryEvent[]): DurableStatus {
  const status: DurableStatus = {
    name: record.name,
    instanceId: record.instanceId,
    runtimeStatus: record.status,
    input: options.showInput === false ? null : parseJsonText(record.inputJson),
    output: parseJsonText(record.outputJson),
    customStatus: parseJsonText(record.customStatusJson),
    createdTime: new Date(record.createdAt).toISOString(),
    lastUpdatedTime: new Date(record.updatedAt).toISOString(),
  };
  if (options.showHistory && history) status.history = statusHistory(history, options.showHistoryOutput === true);
  return status;
}
