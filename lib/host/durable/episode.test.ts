import { describe, expect, it } from 'vitest';
import { decideEpisode, defaultChildInstanceId, eventsToCarryOver, type EpisodeContext } from './episode.js';
import { EventType, historyEvent, type HistoryEvent } from './historyEvents.js';
import type { ReplayOutcome } from './replay.js';
import { retryDelayMs, toRetryPolicy } from './retryPolicy.js';
import type { AllocatedTask } from './taskShapes.js';

const T0 = new Date('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

function ran(tasks: AllocatedTask[], extra: Partial<Extract<ReplayOutcome, { kind: 'ran' }>> = {}): ReplayOutcome {
  return {
    kind: 'ran',
    isDone: false,
    output: undefined,
    customStatus: undefined,
    continueAsNew: undefined,
    unsupported: [],
    tasks: new Map(tasks.map((task) => [task.id, task])),
    processedEvents: 0,
    bufferedEvents: new Map(),
    ...extra,
  };
}

function context(past: HistoryEvent[] = [], fresh: HistoryEvent[] = [historyEvent.orchestratorStarted(T0)]): EpisodeContext {
  return { instanceId: 'i1', name: 'orch', past, fresh, now: T0 };
}

const started = [historyEvent.orchestratorStarted(T0), historyEvent.executionStarted(T0, 'orch', '{}')];

describe('retryDelayMs', () => {
  it.each([
    { policy: { firstRetryIntervalInMilliseconds: 100, maxNumberOfAttempts: 5 }, attempt: 1, delay: 100 },
    { policy: { firstRetryIntervalInMilliseconds: 100, maxNumberOfAttempts: 5 }, attempt: 4, delay: 100 },
    { policy: { firstRetryIntervalInMilliseconds: 100, maxNumberOfAttempts: 5, backoffCoefficient: 2 }, attempt: 3, delay: 400 },
    {
      policy: {
        firstRetryIntervalInMilliseconds: 100,
        maxNumberOfAttempts: 5,
        backoffCoefficient: 10,
        maxRetryIntervalInMilliseconds: 2500,
      },
      attempt: 3,
      delay: 2500,
    },
    {
      policy: { firstRetryIntervalInMilliseconds: 100, maxNumberOfAttempts: 5, maxRetryIntervalInMilliseconds: 0 },
      attempt: 2,
      delay: 100,
    },
  ])('$policy after failed attempt $attempt -> $delay ms', ({ policy, attempt, delay }) => {
    expect(retryDelayMs(policy, attempt)).toBe(delay);
  });

  it.each([
    {
      value: { firstRetryIntervalInMilliseconds: 5, maxNumberOfAttempts: 2, backoffCoefficient: 1.5 },
      policy: { firstRetryIntervalInMilliseconds: 5, maxNumberOfAttempts: 2, backoffCoefficient: 1.5 },
    },
    { value: { firstRetryIntervalInMilliseconds: 5 }, policy: undefined },
    { value: 'nope', policy: undefined },
  ])('toRetryPolicy($value)', ({ value, policy }) => {
    expect(toRetryPolicy(value)).toEqual(policy);
  });
});

describe('eventsToCarryOver', () => {
  const e = (name: string, input: string) => historyEvent.eventRaised(T0, name, input);
  const history = [...started, e('a', '1'), e('b', '2'), e('a', '3'), historyEvent.orchestratorStarted(at(1)), e('a', '4')];

  it.each([
    { label: 'nothing buffered, all processed', processed: 7, buffered: {}, inputs: [] },
    { label: 'the latest buffered events of a name', processed: 7, buffered: { a: 2 }, inputs: ['3', '4'] },
    { label: 'events after the point where the replay stopped', processed: 3, buffered: {}, inputs: ['2', '3', '4'] },
    { label: 'both, in history order', processed: 3, buffered: { a: 1 }, inputs: ['1', '2', '3', '4'] },
  ])('$label', ({ processed, buffered, inputs }) => {
    const carried = eventsToCarryOver(history, processed, new Map(Object.entries(buffered)));
    expect(carried.map((event) => event.Input)).toEqual(inputs);
  });
});

describe('decideEpisode', () => {
  it('schedules new activities, timers, retry timers and children, and keeps replayed ones', () => {
    const past = [...started, historyEvent.taskScheduled(T0, 0, 'a')];
    const decision = decideEpisode(
      context(past),
      ran(
        [
          { id: 0, kind: 'activity', name: 'a', input: 1 },
          { id: 1, kind: 'activity', name: 'b', input: 'text' },
          { id: 2, kind: 'timer', fireAt: at(5000), isCanceled: false },
          { id: 3, kind: 'timer', fireAt: at(9000), isCanceled: true },
          { id: 4, kind: 'retryTimer', policy: { firstRetryIntervalInMilliseconds: 250, maxNumberOfAttempts: 3 }, failedAttempt: 1 },
          { id: 5, kind: 'subOrchestration', name: 'child', input: { n: 1 }, instanceId: undefined },
          { id: 6, kind: 'subOrchestration', name: 'child', input: null, instanceId: 'named' },
        ],
        { customStatus: { step: 2 } },
      ),
    );
    expect(decision.outcome).toEqual({ kind: 'running' });
    expect(decision.customStatusJson).toBe('{"step":2}');
    expect(decision.activities).toEqual([{ taskId: 1, name: 'b', inputJson: '"text"' }]);
    expect(decision.timers).toEqual([
      { timerId: 2, fireAt: at(5000) },
      { timerId: 4, fireAt: at(250) },
    ]);
    expect(decision.children).toEqual([
      { taskId: 5, name: 'child', instanceId: 'i1:0005', inputJson: '{"n":1}' },
      { taskId: 6, name: 'child', instanceId: 'named', inputJson: 'null' },
    ]);
    expect(decision.append.map((event) => [event.EventType, event.EventId])).toEqual([
      [EventType.OrchestratorStarted, -1],
      [EventType.TaskScheduled, 1],
      [EventType.TimerCreated, 2],
      [EventType.TimerCreated, 3],
      [EventType.TimerCreated, 4],
      [EventType.SubOrchestrationInstanceCreated, 5],
      [EventType.SubOrchestrationInstanceCreated, 6],
    ]);
  });

  it.each([
    {
      label: 'another activity name',
      recorded: historyEvent.taskScheduled(T0, 0, 'a'),
      task: { id: 0, kind: 'activity', name: 'b', input: null } as AllocatedTask,
      message: /has a call to activity 'a' \(expected\), but the replay now makes a call to activity 'b' \(actual\)/,
    },
    {
      label: 'a timer where an activity was',
      recorded: historyEvent.taskScheduled(T0, 0, 'a'),
      task: { id: 0, kind: 'timer', fireAt: T0, isCanceled: false } as AllocatedTask,
      message: /has a call to activity 'a' \(expected\), but the replay now makes a durable timer \(actual\)/,
    },
    {
      label: 'an activity where a sub-orchestration was',
      recorded: historyEvent.subOrchestrationCreated(T0, 0, 'child', 'c'),
      task: { id: 0, kind: 'activity', name: 'child', input: null } as AllocatedTask,
      message: /has a call to sub-orchestrator 'child' \(expected\), but the replay now makes a call to activity 'child'/,
    },
  ])('fails the instance on nondeterminism: $label', ({ recorded, task, message }) => {
    const decision = decideEpisode(context([...started, recorded]), ran([task]));
    expect(decision.outcome.kind).toBe('failed');
    expect(decision.outcome.kind === 'failed' && decision.outcome.message).toMatch(
      /^Orchestrator function 'orch' failed: NonDeterministicOrchestration: at sequence number 0/,
    );
    expect(decision.outcome.kind === 'failed' && decision.outcome.message).toMatch(message);
    expect(decision.activities).toEqual([]);
    expect(decision.append.at(-1)).toMatchObject({ EventType: EventType.ExecutionCompleted, OrchestrationStatus: 'Failed' });
  });

  it.each([
    {
      label: 'completes with the output',
      replay: ran([], { isDone: true, output: { ok: 1 } }),
      outcome: { kind: 'completed', outputJson: '{"ok":1}' },
    },
    {
      label: 'continues as new with the new input and carried events',
      replay: ran([], { isDone: true, continueAsNew: { input: { page: 2 } }, processedEvents: 2 }),
      outcome: { kind: 'continuedAsNew', inputJson: '{"page":2}', carryOver: [] },
    },
    {
      label: 'fails with the orchestrator error',
      replay: { kind: 'failed', message: 'boom', customStatus: 'x' } as ReplayOutcome,
      outcome: { kind: 'failed', message: "Orchestrator function 'orch' failed: boom" },
    },
    {
      label: 'fails when an unsupported API is used',
      replay: ran([], { unsupported: ['callHttp'] }),
      outcome: { kind: 'failed', message: "Orchestrator function 'orch' failed: the embedded host does not support callHttp." },
    },
    {
      label: 'fails when the output cannot be stored as JSON',
      replay: ran([], { isDone: true, output: { n: BigInt(2) } }),
      outcome: {
        kind: 'failed',
        message:
          "Orchestrator function 'orch' failed: it produced a value that cannot be stored as JSON (Do not know how to serialize a BigInt).",
      },
    },
  ])('$label', ({ replay, outcome }) => {
    expect(decideEpisode(context(started), replay).outcome).toEqual(outcome);
  });

  it('names generated child instances after the parent and the sequence number in hex', () => {
    expect([0, 10, 4095].map((id) => defaultChildInstanceId('run-7', id))).toEqual(['run-7:0000', 'run-7:000A', 'run-7:0FFF']);
  });
});
