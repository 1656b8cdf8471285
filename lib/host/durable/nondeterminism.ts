/**
 * The nondeterminism check the Durable Task Framework performs and the JS replay does not: the task that received
 * sequence number N on this replay must be the same kind of call, to the same function, as the scheduling event
 * the history recorded under N (TaskScheduled, SubOrchestrationInstanceCreated or TimerCreated).
 */
import { EventType, type HistoryEvent } from './historyEvents.js';
import type { AllocatedTask } from './taskShapes.js';

const SCHEDULING_TYPES: ReadonlySet<number> = new Set([
  EventType.TaskScheduled,
  EventType.SubOrchestrationInstanceCreated,
  EventType.TimerCreated,
]);

/** Scheduling events of a history by sequence number. */
export function schedulingEventsById(history: readonly HistoryEvent[]): Map<number, HistoryEvent> {
  const byId = new Map<number, HistoryEvent>();
  for (const event of history) if (SCHEDULING_TYPES.has(event.EventType)) byId.set(event.EventId, event);
  return byId;
}

function describeEvent(event: HistoryEvent): string {
  if (event.EventType === EventType.TaskScheduled) return `a call to activity '${event.Name ?? ''}'`;
  if (event.EventType === EventType.SubOrchestrationInstanceCreated) return `a call to sub-orchestrator '${event.Name ?? ''}'`;
  return 'a durable timer';
}

function describeTask(task: AllocatedTask): string {
  switch (task.kind) {
    case 'activity':
      return `a call to activity '${task.name}'`;
    case 'subOrchestration':
      return `a call to sub-orchestrator '${task.name}'`;
    case 'timer':
    case 'retryTimer':
      return 'a durable timer';
    case 'unsupported':
      return `an unsupported call (${task.what})`;
  }
}

function matches(task: AllocatedTask, event: HistoryEvent): boolean {
  switch (task.kind) {
    case 'activity':
      return event.EventType === EventType.TaskScheduled && event.Name === task.name;
    case 'subOrchestration':
      return event.EventType === EventType.SubOrchestrationInstanceCreated && event.Name === task.name;
    case 'timer':
    case 'retryTimer':
      return event.EventType === EventType.TimerCreated;
    case 'unsupported':
      return false;
  }
}

/**
 * The first mismatch between replayed tasks and recorded scheduling events, as a message a person can act on;
 * undefined when the replay agrees with the history.
 */
export function findNondeterminism(
  orchestratorName: string,
  tasks: ReadonlyMap<number, AllocatedTask>,
  scheduled: ReadonlyMap<number, HistoryEvent>,
): string | undefined {
  const ids = [...tasks.keys()].sort((a, b) => a - b);
  for (const id of ids) {
    const task = tasks.get(id);
    const recorded = scheduled.get(id);
    if (!task || !recorded || matches(task, recorded)) continue;
    return (
      `NonDeterministicOrchestration: at sequence number ${id} the history of orchestrator '${orchestratorName}' has ` +
      `${describeEvent(recorded)} (expected), but the replay now makes ${describeTask(task)} (actual). An orchestrator ` +
      'must make the same calls in the same order on every replay: was its code changed while this instance was ' +
      'running, or does it branch on the clock, random numbers or mutable module state?'
    );
  }
  return undefined;
}
