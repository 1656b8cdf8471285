/**
 * Pure decision of one orchestrator episode: from the stored history, the events consumed this episode and the
 * replay's outcome, everything the store must commit atomically (history to append, activities, timers, child
 * instances, the new status).
 */
import { EventType, historyEvent, toJsonText, type HistoryEvent } from './historyEvents.js';
import { findNondeterminism, schedulingEventsById } from './nondeterminism.js';
import type { ReplayOutcome } from './replay.js';
import { retryDelayMs } from './retryPolicy.js';
import type { AllocatedTask } from './taskShapes.js';

export interface EpisodeContext {
  instanceId: string;
  name: string;
  /** History stored before this episode. */
  past: readonly HistoryEvent[];
  /** OrchestratorStarted plus the inbox events consumed by this episode (appended to the history). */
  fresh: readonly HistoryEvent[];
  now: Date;
}

/** Values the store writes are already JSON text (serialised here, once, where a failure is still data). */
export type EpisodeOutcome =
  | { kind: 'running' }
  | { kind: 'completed'; outputJson: string }
  | { kind: 'failed'; message: string }
  | { kind: 'continuedAsNew'; inputJson: string; carryOver: HistoryEvent[] };

export interface ActivityToSchedule {
  taskId: number;
  name: string;
  inputJson: string;
}

export interface ChildToCreate {
  taskId: number;
  name: string;
  instanceId: string;
  inputJson: string;
}

export interface EpisodeDecision {
  append: HistoryEvent[];
  activities: ActivityToSchedule[];
  timers: Array<{ timerId: number; fireAt: Date }>;
  children: ChildToCreate[];
  /** JSON text, or null when the orchestrator set no custom status. */
  customStatusJson: string | null;
  outcome: EpisodeOutcome;
}

/** Instance id of a sub-orchestration started without one: the parent's id and the sequence number in hex. */
export function defaultChildInstanceId(parentInstanceId: string, taskId: number): string {
  return `${parentInstanceId}:${taskId.toString(16).toUpperCase().padStart(4, '0')}`;
}

function customStatusJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  try {
    return toJsonText(value);
  } catch {
    return null;
  }
}

function failed(context: EpisodeContext, message: string, customStatus: unknown): EpisodeDecision {
  const text = `Orchestrator function '${context.name}' failed: ${message}`;
  return {
    append: [...context.fresh, historyEvent.executionCompleted(context.now, 'Failed', toJsonText(text))],
    activities: [],
    timers: [],
    children: [],
    customStatusJson: customStatusJson(customStatus),
    outcome: { kind: 'failed', message: text },
  };
}

/**
 * External events that continueAsNew must carry into the next generation: those the replay buffered without a
 * waiter (always the latest ones of their name, since waiters take buffered events first-in first-out) and those
 * after the point where the replay stopped.
 */
export function eventsToCarryOver(
  history: readonly HistoryEvent[],
  processedEvents: number,
  buffered: ReadonlyMap<string, number>,
): HistoryEvent[] {
  const byName = new Map<string, number[]>();
  history.forEach((event, index) => {
    if (index >= processedEvents || event.EventType !== EventType.EventRaised) return;
    const name = event.Name ?? '';
    byName.set(name, [...(byName.get(name) ?? []), index]);
  });
  const keep = new Set<number>();
  for (const [name, indexes] of byName) {
    const count = Math.min(buffered.get(name) ?? 0, indexes.length);
    indexes.slice(indexes.length - count).forEach((index) => keep.add(index));
  }
  return history.filter((event, index) => event.EventType === EventType.EventRaised && (keep.has(index) || index >= processedEvents));
}

function schedule(context: EpisodeContext, task: AllocatedTask, decision: EpisodeDecision): void {
  const { now } = context;
  switch (task.kind) {
    case 'activity':
      decision.append.push(historyEvent.taskScheduled(now, task.id, task.name));
      decision.activities.push({ taskId: task.id, name: task.name, inputJson: toJsonText(task.input) });
      return;
    case 'subOrchestration': {
      const instanceId = task.instanceId ?? defaultChildInstanceId(context.instanceId, task.id);
      decision.append.push(historyEvent.subOrchestrationCreated(now, task.id, task.name, instanceId));
      decision.children.push({ taskId: task.id, name: task.name, instanceId, inputJson: toJsonText(task.input) });
      return;
    }
    case 'timer':
      decision.append.push(historyEvent.timerCreated(now, task.id, task.fireAt));
      if (!task.isCanceled) decision.timers.push({ timerId: task.id, fireAt: task.fireAt });
      return;
    case 'retryTimer': {
      const fireAt = new Date(now.getTime() + retryDelayMs(task.policy, task.failedAttempt));
      decision.append.push(historyEvent.timerCreated(now, task.id, fireAt));
      decision.timers.push({ timerId: task.id, fireAt });
      return;
    }
    case 'unsupported':
      return;
  }
}

/** Everything one episode commits, given the replay's outcome. */
export function decideEpisode(context: EpisodeContext, replay: ReplayOutcome): EpisodeDecision {
  try {
    return decide(context, replay);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const customStatus = replay.kind === 'ran' ? replay.customStatus : undefined;
    return failed(context, `it produced a value that cannot be stored as JSON (${reason}).`, customStatus);
  }
}

function decide(context: EpisodeContext, replay: ReplayOutcome): EpisodeDecision {
  if (replay.kind === 'failed') return failed(context, replay.message, replay.customStatus);
  const unsupported = [
    ...replay.unsupported,
    ...[...replay.tasks.values()].flatMap((task) => (task.kind === 'unsupported' ? [task.what] : [])),
  ];
  if (unsupported.length > 0) {
    const list = [...new Set(unsupported)].join(', ');
    return failed(context, `the embedded host does not support ${list}.`, replay.customStatus);
  }
  const scheduled = schedulingEventsById(context.past);
  const mismatch = findNondeterminism(context.name, replay.tasks, scheduled);
  if (mismatch) return failed(context, mismatch, replay.customStatus);

  const decision: EpisodeDecision = {
    append: [...context.fresh],
    activities: [],
    timers: [],
    children: [],
    customStatusJson: replay.customStatus === undefined || replay.customStatus === null ? null : toJsonText(replay.customStatus),
    outcome: { kind: 'running' },
  };
  if (replay.isDone && replay.continueAsNew) {
    const history = [...context.past, ...context.fresh];
    const carryOver = eventsToCarryOver(history, replay.processedEvents, replay.bufferedEvents);
    decision.outcome = { kind: 'continuedAsNew', inputJson: toJsonText(replay.continueAsNew.input), carryOver };
    return decision;
  }
  if (replay.isDone) {
    const outputJson = toJsonText(replay.output);
    decision.append.push(historyEvent.executionCompleted(context.now, 'Completed', outputJson));
    decision.outcome = { kind: 'completed', outputJson };
    return decision;
  }
  const fresh = [...replay.tasks.values()].filter((task) => !scheduled.has(task.id)).sort((a, b) => a.id - b.id);
  for (const task of fresh) schedule(context, task, decision);
  return decision;
}
