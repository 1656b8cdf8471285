import { describe, expect, it } from 'vitest';
import { activityCompleted, activityFailed, parseFailureDetails } from './activityResult.js';
import { EventType, historyEvent, reviveEvent, serializeEvent } from './historyEvents.js';
import { statusHistory, toDurableStatus, type InstanceRecord } from './status.js';
import { classifyTask, decodeProcessedInput, findContinueAsNew, unsupportedActions } from './taskShapes.js';

const T0 = new Date('2030-01-01T00:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

describe('classifyTask (durable-functions 3.5.0 task objects)', () => {
  const retryOptions = { firstRetryIntervalInMilliseconds: 100, maxNumberOfAttempts: 3 };
  const inner = { id: 0, actionObj: { actionType: 1, functionName: 'flaky', input: '"k"', retryOptions } };
  const retryable: Record<string, unknown> = { children: [inner], innerTask: inner, retryOptions };
  const placeholder = () => {
    const task = { id: false, actionObj: 'noOp', parent: retryable };
    (retryable.children as unknown[]).push(task);
    return task;
  };
  const firstTimer = placeholder();
  const secondAttempt = placeholder();

  it.each([
    {
      label: 'an activity (string input decoded)',
      task: { actionObj: { actionType: 0, functionName: 'a', input: '"x"' } },
      expected: { id: 7, kind: 'activity', name: 'a', input: 'x' },
    },
    { label: 'an activity with retry (first attempt)', task: inner, expected: { id: 7, kind: 'activity', name: 'flaky', input: 'k' } },
    {
      label: 'a sub-orchestration',
      task: { actionObj: { actionType: 2, functionName: 'child', input: { n: 1 }, instanceId: 'c1' } },
      expected: { id: 7, kind: 'subOrchestration', name: 'child', input: { n: 1 }, instanceId: 'c1' },
    },
    {
      label: 'a timer',
      task: { actionObj: { actionType: 5, fireAt: later(5), isCanceled: false } },
      expected: { id: 7, kind: 'timer', fireAt: later(5), isCanceled: false },
    },
    { label: 'a retry timer', task: firstTimer, expected: { id: 7, kind: 'retryTimer', policy: retryOptions, failedAttempt: 1 } },
    { label: 'a retry re-run', task: secondAttempt, expected: { id: 7, kind: 'activity', name: 'flaky', input: 'k' } },
    { label: 'callHttp', task: { actionObj: { actionType: 8 } }, expected: { id: 7, kind: 'unsupported', what: 'callHttp' } },
    {
      label: 'a stray placeholder',
      task: { actionObj: 'noOp' },
      expected: { id: 7, kind: 'unsupported', what: 'a task the embedded hub does not recognise (not a retry placeholder)' },
    },
  ])('$label', ({ task, expected }) => {
    expect(classifyTask(7, task)).toEqual(expected);
  });

  it.each([
    { input: '"text"', decoded: 'text' },
    { input: '{"a":1}', decoded: { a: 1 } },
    { input: 'not json', decoded: 'not json' },
    { input: { a: 1 }, decoded: { a: 1 } },
    { input: undefined, decoded: undefined },
  ])('decodeProcessedInput($input)', ({ input, decoded }) => {
    expect(decodeProcessedInput(input)).toEqual(decoded);
  });

  it('finds unsupported actions inside compound actions, and the continueAsNew input', () => {
    const actions = [
      [{ actionType: 12, compoundActions: [{ actionType: 0 }, { actionType: 7 }] }, { actionType: 9 }, { actionType: 4, input: '"again"' }],
    ];
    expect(unsupportedActions(actions)).toEqual(['callEntity (durable entities)', 'signalEntity (durable entities)']);
    expect(findContinueAsNew(actions)).toEqual({ input: 'again' });
    expect(findContinueAsNew([[{ actionType: 0 }]])).toBeUndefined();
  });
});

describe('history events', () => {
  it('round-trips through JSON with Dates restored and IsPlayed set by the reader', () => {
    const event = historyEvent.timerCreated(T0, 3, later(1000));
    const revived = reviveEvent(serializeEvent(event), true);
    expect(revived).toEqual({ ...event, IsPlayed: true });
    expect(revived.FireAt).toBeInstanceOf(Date);
  });

  it('refuses a row that is not an event', () => {
    expect(() => reviveEvent('{"x":1}', false)).toThrow('Corrupt task hub row: not a history event: {"x":1}');
  });
});

describe('activity results', () => {
  it('turns a thrown Error into TaskFailed with the message in Reason and the stack in Details', () => {
    const error = new Error('no route');
    expect(activityFailed(T0, 4, 'call', error)).toMatchObject({
      EventType: EventType.TaskFailed,
      TaskScheduledId: 4,
      Reason: "Activity function 'call' failed: no route",
      Details: error.stack,
    });
  });

  it('keeps structured failure details from the exception-properties provider', () => {
    const payload = JSON.stringify({
      errorType: 'RangeError',
      errorMessage: 'too big',
      isNonRetriable: false,
      properties: { limit: 5 },
      stackTrace: 'at x',
    });
    expect(parseFailureDetails(payload)).toEqual({
      ErrorType: 'RangeError',
      ErrorMessage: 'too big',
      IsNonRetriable: false,
      StackTrace: 'at x',
      Properties: { limit: 5 },
    });
    expect(activityFailed(T0, 1, 'a', new Error(payload))).toMatchObject({
      Reason: "Activity function 'a' failed: too big",
      Details: 'at x',
    });
    expect(parseFailureDetails('{not json')).toBeUndefined();
  });

  it.each([
    { result: { ok: true }, event: { EventType: EventType.TaskCompleted, Result: '{"ok":true}' } },
    { result: undefined, event: { EventType: EventType.TaskCompleted, Result: 'null' } },
    {
      result: BigInt(1),
      event: {
        EventType: EventType.TaskFailed,
        Reason: "Activity function 'a' returned a value that cannot be stored as JSON: Do not know how to serialize a BigInt",
      },
    },
  ])('activityCompleted($result)', ({ result, event }) => {
    expect(activityCompleted(T0, 2, 'a', result)).toMatchObject({ TaskScheduledId: 2, ...event });
  });
});

describe('status', () => {
  const record: InstanceRecord = {
    instanceId: 'i1',
    name: 'orch',
    executionId: 'e1',
    status: 'Completed',
    inputJson: '{"in":1}',
    outputJson: '"done"',
    customStatusJson: null,
    parentInstanceId: null,
    parentTaskId: null,
    parentExecutionId: null,
    createdAt: T0.getTime(),
    updatedAt: T0.getTime() + 5,
  };
  const history = [
    historyEvent.orchestratorStarted(T0),
    historyEvent.executionStarted(T0, 'orch', '{"in":1}'),
    historyEvent.taskScheduled(T0, 0, 'work'),
    historyEvent.orchestratorStarted(later(2)),
    historyEvent.taskCompleted(later(2), 0, '42'),
    historyEvent.eventRaised(later(3), 'Go', '"yes"'),
    historyEvent.executionCompleted(later(4), 'Completed', '"done"'),
  ];

  it('summarises history like the extension: completions carry their function name and scheduled time', () => {
    expect(statusHistory(history, true)).toEqual([
      { EventType: 'ExecutionStarted', Timestamp: T0.toISOString(), FunctionName: 'orch', Input: { in: 1 } },
      { EventType: 'TaskCompleted', Timestamp: later(2).toISOString(), FunctionName: 'work', ScheduledTime: T0.toISOString(), Result: 42 },
      { EventType: 'EventRaised', Timestamp: later(3).toISOString(), Name: 'Go', Input: 'yes' },
      { EventType: 'ExecutionCompleted', Timestamp: later(4).toISOString(), OrchestrationStatus: 'Completed', Result: 'done' },
    ]);
    expect(statusHistory(history, false)[1]).toEqual({
      EventType: 'TaskCompleted',
      Timestamp: later(2).toISOString(),
      FunctionName: 'work',
      ScheduledTime: T0.toISOString(),
    });
  });

  it('builds the client status, hiding the input when showInput is false', () => {
    expect(toDurableStatus(record, { showInput: false })).toEqual({
      name: 'orch',
      instanceId: 'i1',
      runtimeStatus: 'Completed',
      input: null,
      output: 'done',
      customStatus: null,
      createdTime: T0.toISOString(),
      lastUpdatedTime: later(5).toISOString(),
    });
    expect(toDurableStatus(record, { showHistory: true }, history).history).toHaveLength(4);
  });
});
