/**
 * No-op function app for `bench/host.bench.ts`: a 'many' and a 'one' queue trigger and a fan-out orchestration.
 * Entry for captureRegistrations(() => import('./testapp/benchApp.js')).
 */
import { app } from '@azure/functions';
import * as df from 'durable-functions';
import type { OrchestrationContext } from 'durable-functions';
import { BENCH, firstHandledAt, handled } from './benchCounters.js';

app.serviceBusQueue('benchMany', {
  connection: 'SERVICEBUS',
  queueName: BENCH.manyQueue,
  cardinality: 'many',
  handler: (messages: unknown) => {
    if (handled.many === 0) firstHandledAt.many = performance.now();
    handled.many += (messages as unknown[]).length;
  },
});

app.serviceBusQueue('benchOne', {
  connection: 'SERVICEBUS',
  queueName: BENCH.oneQueue,
  handler: () => {
    if (handled.one === 0) firstHandledAt.one = performance.now();
    handled.one += 1;
  },
});

df.app.activity(BENCH.activity, { handler: (n: unknown) => n });

df.app.orchestration(BENCH.fanOut, function* (context: OrchestrationContext) {
  const count = context.df.getInput() as number;
  const results = (yield context.df.Task.all(
    Array.from({ length: count }, (_, i) => context.df.callActivity(BENCH.activity, i)),
  )) as number[];
  return results.length;
});
