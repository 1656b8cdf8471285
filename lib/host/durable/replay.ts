/**
 * Runs one replay of an orchestrator through the REAL durable-functions engine (the callback df.app.orchestration
 * registered, i.e. the library's Orchestrator) and reports what it decided.
 *
 * The trigger value mirrors what the Durable extension sends an out-of-proc worker (upperSchemaVersionNew = V3, so
 * Task.all/any stay nested and long timers are split like in Azure). The JS replay assigns sequence numbers itself
 * but never reports which task got which number, so the hub watches the executor behind `context.df`: it wraps
 * `trackOpenTask` (where numbers are assigned) and `processEvent` (to know how far into the history the replay got).
 * Those two are internals of durable-functions 3.5.0 (pinned; dfLibrary.ts checks the version).
 */
import { randomUUID } from 'node:crypto';
import type { InvocationContext } from '@azure/functions';
import type { FunctionCallback } from '../registration.js';
import { createInvocationContext, type OrchestratorLogHandler } from './dfLibrary.js';
import type { HistoryEvent } from './historyEvents.js';
import { classifyTask, findContinueAsNew, isDict, unsupportedActions, type AllocatedTask, type Dict } from './taskShapes.js';

/** ReplaySchema numbers of the SDK; the extension announces V2 (legacy field) and V3 (upperSchemaVersionNew). */
const REPLAY_SCHEMA_V2 = 1;
const REPLAY_SCHEMA_V3 = 2;
/** Azure Storage's limits, which the extension passes along: timers longer than 6 days are split into 3-day ones. */
const MAXIMUM_SHORT_TIMER_DURATION = '6.00:00:00';
const LONG_RUNNING_TIMER_INTERVAL = '3.00:00:00';
const OUT_OF_PROC_DATA_LABEL = '\n\n$OutOfProcData$:';

export type ReplayOutcome =
  | {
      kind: 'ran';
      /** True when the orchestrator returned or called continueAsNew. */
      isDone: boolean;
      output: unknown;
      customStatus: unknown;
      continueAsNew: { input: unknown } | undefined;
      /** APIs the embedded hub does not support that the orchestrator used (entities, callHttp). */
      unsupported: string[];
      /** Every task that received a sequence number during this replay, by number. */
      tasks: Map<number, AllocatedTask>;
      /** How many history events the replay processed (it stops early on return / continueAsNew). */
      processedEvents: number;
      /** External events received but not consumed by a waiter, counted per event name. */
      bufferedEvents: Map<string, number>;
    }
  | { kind: 'failed'; message: string; customStatus: unknown };

export interface ReplayRequest {
  instanceId: string;
  name: string;
  history: HistoryEvent[];
  input: unknown;
  parentInstanceId: string | undefined;
  log: OrchestratorLogHandler;
}

interface ExecutorHooks {
  tasks: Map<number, AllocatedTask>;
  executor: Dict | undefined;
  processed: number;
  hookError: string | undefined;
}

function isLeafTask(task: unknown): task is Dict {
  return isDict(task) && !Array.isArray(task.children);
}

function installHooks(executor: Dict, hooks: ExecutorHooks): void {
  const track = executor.trackOpenTask;
  const process = executor.processEvent;
  if (typeof track !== 'function' || typeof process !== 'function') {
    hooks.hookError = 'the durable-functions replay executor does not have the expected shape (version mismatch?)';
    return;
  }
  executor.trackOpenTask = function trackOpenTask(this: unknown, task: unknown) {
    const fresh = isLeafTask(task) && task.id === false;
    track.call(this, task);
    if (fresh && typeof task.id === 'number') hooks.tasks.set(task.id, classifyTask(task.id, task));
  };
  executor.processEvent = function processEvent(this: unknown, event: unknown) {
    hooks.processed += 1;
    process.call(this, event);
  };
  hooks.executor = executor;
}

/** The context whose `df` property the library assigns first thing: the setter is where the hooks go in. */
function hookedContext(name: string, log: OrchestratorLogHandler, hooks: ExecutorHooks): InvocationContext {
  const context = createInvocationContext(name, randomUUID(), log);
  let df: unknown;
  Object.defineProperty(context, 'df', {
    configurable: true,
    enumerable: true,
    get: () => df,
    set: (value: unknown) => {
      df = value;
      const executor = isDict(value) ? value.taskOrchestratorExecutor : undefined;
      if (isDict(executor)) installHooks(executor, hooks);
      else hooks.hookError = 'context.df has no replay executor (durable-functions version mismatch?)';
    },
  });
  return context;
}

function bufferedEvents(executor: Dict | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  const deferred = executor?.deferredTasks;
  if (!isDict(deferred)) return counts;
  for (const [key, queue] of Object.entries(deferred)) if (Array.isArray(queue) && queue.length > 0) counts.set(key, queue.length);
  return counts;
}

/**
 * The failure's message. The SDK throws `<something>\n\n$OutOfProcData$:<state json>`, where the text before the
 * label is not the orchestrator's error in 3.5.0 (it passes a boolean there); like the extension, read the
 * state's `error` field, falling back to the text before the label.
 */
function failureOf(error: unknown): { message: string; customStatus: unknown } {
  const text = error instanceof Error ? error.message : String(error);
  const cut = text.indexOf(OUT_OF_PROC_DATA_LABEL);
  if (cut < 0) return { message: text, customStatus: undefined };
  let state: unknown;
  try {
    state = JSON.parse(text.slice(cut + OUT_OF_PROC_DATA_LABEL.length));
  } catch {
    state = undefined;
  }
  const message = isDict(state) && typeof state.error === 'string' ? state.error : text.slice(0, cut);
  return { message, customStatus: isDict(state) ? state.customStatus : undefined };
}

/** Replays the orchestrator over `history`; never throws for orchestrator errors (they become kind 'failed'). */
export async function replayOrchestration(callback: FunctionCallback, request: ReplayRequest): Promise<ReplayOutcome> {
  const hooks: ExecutorHooks = { tasks: new Map(), executor: undefined, processed: 0, hookError: undefined };
  const trigger = {
    history: request.history,
    input: request.input,
    instanceId: request.instanceId,
    isReplaying: false,
    parentInstanceId: request.parentInstanceId,
    upperSchemaVersion: REPLAY_SCHEMA_V2,
    upperSchemaVersionNew: REPLAY_SCHEMA_V3,
    longRunningTimerIntervalDuration: LONG_RUNNING_TIMER_INTERVAL,
    maximumShortTimerDuration: MAXIMUM_SHORT_TIMER_DURATION,
    defaultHttpAsyncRequestSleepTimeMillseconds: 30_000,
  };
  let state: unknown;
  try {
    state = await callback(trigger, hookedContext(request.name, request.log, hooks));
  } catch (error) {
    return { kind: 'failed', ...failureOf(error) };
  }
  if (hooks.hookError !== undefined || !hooks.executor) {
    throw new Error(`Embedded task hub: ${hooks.hookError ?? 'the orchestrator callback did not run the durable-functions replay'}.`);
  }
  if (!isDict(state) || typeof state.isDone !== 'boolean') {
    return { kind: 'failed', message: `Orchestrator '${request.name}' did not return an orchestration state.`, customStatus: undefined };
  }
  return {
    kind: 'ran',
    isDone: state.isDone,
    output: state.output,
    customStatus: state.customStatus,
    continueAsNew: state.isDone ? findContinueAsNew(state.actions) : undefined,
    unsupported: unsupportedActions(state.actions),
    tasks: hooks.tasks,
    processedEvents: hooks.processed,
    bufferedEvents: bufferedEvents(hooks.executor),
  };
}
