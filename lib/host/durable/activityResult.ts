/** Turns an activity's result or error into the completion event the orchestrator's replay expects. */
import { historyEvent, toJsonText, type FailureDetails, type HistoryEvent } from './historyEvents.js';
import { isDict } from './taskShapes.js';

/**
 * durable-functions' activity wrapper replaces an error's message with a JSON failure payload when the app set an
 * exception-properties provider; such a message becomes FailureDetails (the replay then throws a TaskFailedError).
 */
export function parseFailureDetails(message: string): FailureDetails | undefined {
  if (!message.startsWith('{')) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isDict(payload) || typeof payload.errorType !== 'string' || typeof payload.errorMessage !== 'string') return undefined;
  const details: FailureDetails = {
    ErrorType: payload.errorType,
    ErrorMessage: payload.errorMessage,
    IsNonRetriable: payload.isNonRetriable === true,
  };
  if (typeof payload.stackTrace === 'string') details.StackTrace = payload.stackTrace;
  if (isDict(payload.properties)) details.Properties = payload.properties as Record<string, unknown>;
  return details;
}

/** TaskFailed for an activity error: Reason names the activity and the message, Details carries the stack. */
export function activityFailed(at: Date, taskId: number, activityName: string, error: unknown): HistoryEvent {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : safeText(error);
  const failureDetails = parseFailureDetails(message);
  const reason = `Activity function '${activityName}' failed: ${failureDetails?.ErrorMessage ?? message}`;
  const details = error instanceof Error ? (failureDetails?.StackTrace ?? error.stack ?? message) : message;
  return historyEvent.taskFailed(at, taskId, reason, details, failureDetails);
}

/** TaskCompleted with the JSON result, or TaskFailed when the result cannot be stored as JSON. */
export function activityCompleted(at: Date, taskId: number, activityName: string, result: unknown): HistoryEvent {
  try {
    return historyEvent.taskCompleted(at, taskId, toJsonText(result));
  } catch (error) {
    const reason = `Activity function '${activityName}' returned a value that cannot be stored as JSON: ${safeText(error)}`;
    return historyEvent.taskFailed(at, taskId, reason, '');
  }
}

function safeText(value: unknown): string {
  if (value instanceof Error) return value.message;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
