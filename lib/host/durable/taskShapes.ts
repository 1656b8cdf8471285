/**
 * Duck-typed views of durable-functions 3.5.0 replay objects (actions and tasks), narrowed from `unknown`, and the
 * classification of a task that received a sequence number into what the hub must schedule for it.
 */
import { toRetryPolicy, type RetryPolicy } from './retryPolicy.js';

/** The SDK's ActionType numbers (the out-of-proc protocol's AsyncActionType). */
export const ActionType = {
  CallActivity: 0,
  CallActivityWithRetry: 1,
  CallSubOrchestrator: 2,
  CallSubOrchestratorWithRetry: 3,
  ContinueAsNew: 4,
  CreateTimer: 5,
  WaitForExternalEvent: 6,
  CallEntity: 7,
  CallHttp: 8,
  SignalEntity: 9,
  WhenAny: 11,
  WhenAll: 12,
  LockEntities: 13,
  ReleaseEntities: 14,
} as const;

/** What a sequence number stands for, as the hub must schedule (or compare with history). */
export type AllocatedTask =
  | { id: number; kind: 'activity'; name: string; input: unknown }
  | { id: number; kind: 'subOrchestration'; name: string; input: unknown; instanceId: string | undefined }
  | { id: number; kind: 'timer'; fireAt: Date; isCanceled: boolean }
  | { id: number; kind: 'retryTimer'; policy: RetryPolicy; failedAttempt: number }
  | { id: number; kind: 'unsupported'; what: string };

export type Dict = Record<string, unknown>;

export function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null;
}

/**
 * Activity and continue-as-new inputs arrive as the SDK's `Utils.processInput` left them: a string input is
 * JSON-encoded once more (the extension decodes it before the function sees it), other values are as given.
 */
export function decodeProcessedInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

const UNSUPPORTED: Record<number, string> = {
  [ActionType.CallEntity]: 'callEntity (durable entities)',
  [ActionType.CallHttp]: 'callHttp',
  [ActionType.SignalEntity]: 'signalEntity (durable entities)',
  [ActionType.LockEntities]: 'lock (durable entities)',
  [ActionType.ReleaseEntities]: 'lock release (durable entities)',
  10: 'scheduled signalEntity (durable entities)',
};

/** Names of the unsupported APIs the actions (and nested compound actions) use, once each. */
export function unsupportedActions(actions: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isDict(value)) return;
    const label = typeof value.actionType === 'number' ? UNSUPPORTED[value.actionType] : undefined;
    if (label) found.add(label);
    if (Array.isArray(value.compoundActions)) value.compoundActions.forEach(visit);
  };
  visit(actions);
  return [...found];
}

/** The ContinueAsNew action's decoded input, if the actions contain one. */
export function findContinueAsNew(actions: unknown): { input: unknown } | undefined {
  const flat = Array.isArray(actions) ? actions.flat(2) : [];
  for (const action of flat) {
    if (isDict(action) && action.actionType === ActionType.ContinueAsNew) return { input: decodeProcessedInput(action.input) };
  }
  return undefined;
}

function fromAction(id: number, action: Dict): AllocatedTask {
  const name = typeof action.functionName === 'string' ? action.functionName : '';
  switch (action.actionType) {
    case ActionType.CallActivity:
    case ActionType.CallActivityWithRetry:
      return { id, kind: 'activity', name, input: decodeProcessedInput(action.input) };
    case ActionType.CallSubOrchestrator:
    case ActionType.CallSubOrchestratorWithRetry: {
      const instanceId = typeof action.instanceId === 'string' && action.instanceId ? action.instanceId : undefined;
      return { id, kind: 'subOrchestration', name, input: action.input, instanceId };
    }
    case ActionType.CreateTimer: {
      const fireAt = action.fireAt instanceof Date ? action.fireAt : new Date(String(action.fireAt));
      return { id, kind: 'timer', fireAt, isCanceled: action.isCanceled === true };
    }
    default: {
      const label = typeof action.actionType === 'number' ? UNSUPPORTED[action.actionType] : undefined;
      return { id, kind: 'unsupported', what: label ?? `action type ${String(action.actionType)}` };
    }
  }
}

/**
 * A retry's placeholder task (the SDK's NoOpTask) is a child of a RetryableTask whose children run
 * [first attempt, retry timer, attempt 2, retry timer, attempt 3, ...]: odd positions are timers, even ones re-runs
 * of the inner action. The extension's RetryInterceptor schedules exactly that sequence.
 */
function fromRetryPlaceholder(id: number, task: Dict): AllocatedTask {
  const parent = task.parent;
  if (!isDict(parent) || !Array.isArray(parent.children) || !isDict(parent.innerTask)) {
    return { id, kind: 'unsupported', what: 'a task the embedded hub does not recognise (not a retry placeholder)' };
  }
  const position = parent.children.indexOf(task);
  const policy = toRetryPolicy(parent.retryOptions);
  const innerAction = parent.innerTask.actionObj;
  if (position < 1 || !policy || !isDict(innerAction)) {
    return { id, kind: 'unsupported', what: 'a retry placeholder the embedded hub cannot place' };
  }
  if (position % 2 === 1) return { id, kind: 'retryTimer', policy, failedAttempt: (position + 1) / 2 };
  return fromAction(id, innerAction);
}

/** Classifies a task the SDK just gave sequence number `id`. */
export function classifyTask(id: number, task: Dict): AllocatedTask {
  const action = task.actionObj;
  return isDict(action) ? fromAction(id, action) : fromRetryPlaceholder(id, task);
}
