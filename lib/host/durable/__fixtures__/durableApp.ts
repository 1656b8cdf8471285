/**
 * A small Durable Functions app for the task hub tests, registered exactly as the real app registers its
 * functions. `probe` (./probe.ts) lets tests steer activities and observe how often they ran.
 */
import * as df from 'durable-functions';
import type { OrchestrationContext } from 'durable-functions';
import { probe } from './probe.js';

function countRun(key: string): number {
  const runs = (probe.runs.get(key) ?? 0) + 1;
  probe.runs.set(key, runs);
  return runs;
}

df.app.activity('double', { handler: (n: unknown) => (countRun(`double:${String(n)}`), Number(n) * 2) });
df.app.activity('echo', { handler: (value: unknown) => value });
df.app.activity('flaky', {
  handler: (key: unknown) => {
    const runs = countRun(`flaky:${String(key)}`);
    if (runs <= probe.flakyFailures) throw new Error(`flaky failure ${runs}`);
    return `ok after ${runs}`;
  },
});
df.app.activity('alwaysFails', {
  handler: () => {
    throw new Error('boom');
  },
});
df.app.activity('gated', {
  handler: (n: unknown) =>
    new Promise<number>((resolve) => {
      countRun(`gated:${String(n)}`);
      probe.gates.push(() => resolve(Number(n)));
    }),
});
df.app.activity('actA', { handler: () => 'A' });
df.app.activity('actB', { handler: () => 'B' });

type Input = Record<string, unknown>;
const input = (context: OrchestrationContext): Input => (context.df.getInput() ?? {}) as Input;
const later = (context: OrchestrationContext, ms: number) => new Date(context.df.currentUtcDateTime.getTime() + ms);

df.app.orchestration('fanOutTimerEvent', function* (context: OrchestrationContext) {
  const { count, delayMs } = input(context) as { count: number; delayMs: number };
  const tasks = Array.from({ length: count }, (_, i) => context.df.callActivity('double', i));
  const doubled = (yield context.df.Task.all(tasks)) as number[];
  const sum = doubled.reduce((a, b) => a + b, 0);
  context.df.setCustomStatus({ phase: 'timer', sum });
  yield context.df.createTimer(later(context, delayMs));
  context.df.setCustomStatus({ phase: 'waiting', sum });
  const approval: unknown = yield context.df.waitForExternalEvent('Approve');
  return { sum, approval };
});

df.app.orchestration('race', function* (context: OrchestrationContext) {
  const { timeoutMs } = input(context) as { timeoutMs: number };
  const timer = context.df.createTimer(later(context, timeoutMs));
  const event = context.df.waitForExternalEvent('Go');
  const winner: unknown = yield context.df.Task.any([event, timer]);
  if (winner === event) {
    timer.cancel();
    return { winner: 'event', data: event.result };
  }
  return { winner: 'timer' };
});

df.app.orchestration('retrying', function* (context: OrchestrationContext) {
  const options = new df.RetryOptions(10, 3);
  const result: unknown = yield context.df.callActivityWithRetry('flaky', options, context.df.getInput());
  return result;
});

df.app.orchestration('retryExhausted', function* (context: OrchestrationContext) {
  try {
    yield context.df.callActivityWithRetry('alwaysFails', new df.RetryOptions(5, 2), null);
    return 'unexpected';
  } catch (error) {
    return { caught: error instanceof Error ? error.message : String(error) };
  }
});

df.app.orchestration('child', function* (context: OrchestrationContext) {
  const doubled = (yield context.df.callActivity('double', context.df.getInput())) as number;
  return { doubled, parent: context.df.parentInstanceId ?? null };
});

df.app.orchestration('parent', function* (context: OrchestrationContext) {
  const named = context.df.callSubOrchestrator('child', 1, `${context.df.instanceId}-named`);
  const unnamed = [2, 3].map((n) => context.df.callSubOrchestrator('child', n));
  return (yield context.df.Task.all([named, ...unnamed])) as unknown[];
});

df.app.orchestration('failingChild', function* (context: OrchestrationContext) {
  yield context.df.callActivity('alwaysFails');
});

df.app.orchestration('parentOfFailingChild', function* (context: OrchestrationContext) {
  try {
    yield context.df.callSubOrchestrator('failingChild');
    return 'unexpected';
  } catch (error) {
    return { caught: error instanceof Error ? error.message : String(error) };
  }
});

df.app.orchestration('counter', function* (context: OrchestrationContext) {
  const { generation, seen } = input(context) as { generation: number; seen: unknown[] };
  context.df.setCustomStatus({ generation });
  const doubled = (yield context.df.callActivity('double', generation)) as number;
  if (generation < 3) {
    context.df.continueAsNew({ generation: generation + 1, seen: [...seen, doubled] });
    return undefined;
  }
  const event: unknown = yield context.df.waitForExternalEvent('Finish');
  return { seen: [...seen, doubled], event };
});

df.app.orchestration('flipFlop', function* (context: OrchestrationContext) {
  yield context.df.callActivity(probe.mode === 'A' ? 'actA' : 'actB');
  yield context.df.waitForExternalEvent('Next');
  yield context.df.callActivity('actA');
  return 'done';
});

df.app.orchestration('waitsForever', function* (context: OrchestrationContext) {
  context.df.setCustomStatus('waiting');
  yield context.df.waitForExternalEvent('Never');
});

df.app.orchestration('throws', function* (context: OrchestrationContext) {
  yield context.df.callActivity('alwaysFails');
});

df.app.orchestration('gatedFanOut', function* (context: OrchestrationContext) {
  const { count } = input(context) as { count: number };
  const results = (yield context.df.Task.all(Array.from({ length: count }, (_, i) => context.df.callActivity('gated', i)))) as number[];
  return results.reduce((a, b) => a + b, 0);
});

df.app.orchestration('usesEntity', function* (context: OrchestrationContext) {
  yield context.df.callEntity(new df.EntityId('counter', 'one'), 'add', 1);
});

df.app.orchestration('callsMissing', function* (context: OrchestrationContext) {
  try {
    yield context.df.callActivity('noSuchActivity');
    return 'unexpected';
  } catch (error) {
    return { caught: error instanceof Error ? error.message : String(error) };
  }
});

df.app.orchestration('returnsBigInt', function* (context: OrchestrationContext) {
  yield context.df.callActivity('echo', 1);
  return { big: BigInt(1) };
});

df.app.orchestration('parentOfWaiter', function* (context: OrchestrationContext) {
  try {
    yield context.df.callSubOrchestrator('waitsForever', null, `${context.df.instanceId}-child`);
    return 'unexpected';
  } catch (error) {
    return { caught: error instanceof Error ? error.message : String(error) };
  }
});

df.app.orchestration('nested', function* (context: OrchestrationContext) {
  const quick = context.df.Task.any([context.df.callActivity('echo', 'fast'), context.df.createTimer(later(context, 60_000))]);
  const pair = context.df.Task.all([context.df.callActivity('double', 10), context.df.callActivity('double', 20)]);
  const [winner, doubled] = (yield context.df.Task.all([quick, pair])) as [{ result: unknown }, number[]];
  return { first: winner.result, doubled };
});

df.app.orchestration('longTimer', function* (context: OrchestrationContext) {
  const { days } = input(context) as { days: number };
  yield context.df.createTimer(later(context, days * 86_400_000));
  return context.df.currentUtcDateTime.toISOString();
});

df.app.orchestration('flakyChild', function* (context: OrchestrationContext) {
  return (yield context.df.callActivity('flaky', context.df.getInput())) as unknown;
});

df.app.orchestration('retriesChild', function* (context: OrchestrationContext) {
  return (yield context.df.callSubOrchestratorWithRetry('flakyChild', new df.RetryOptions(10, 3), context.df.getInput())) as unknown;
});
