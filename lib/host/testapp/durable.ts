import { app, type HttpRequest, type InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';
import type { OrchestrationContext } from 'durable-functions';
import { ORCHESTRATION } from './names.js';

interface FanOutInput {
  count: number;
  delayMs: number;
}

df.app.activity(ORCHESTRATION.square, { handler: (n: unknown) => (n as number) * (n as number) });

/** Fans out `count` activities, waits on a durable timer, then on the external event `approve`. */
df.app.orchestration(ORCHESTRATION.fanOut, function* (context: OrchestrationContext) {
  const input = context.df.getInput() as FanOutInput;
  const squares = (yield context.df.Task.all(
    Array.from({ length: input.count }, (_, i) => context.df.callActivity(ORCHESTRATION.square, i + 1)),
  )) as number[];
  const sum = squares.reduce((a, b) => a + b, 0);
  context.df.setCustomStatus({ stage: 'timer', sum });
  yield context.df.createTimer(new Date(context.df.currentUtcDateTime.getTime() + input.delayMs));
  context.df.setCustomStatus({ stage: 'awaiting-approval', sum });
  const approval = (yield context.df.waitForExternalEvent(ORCHESTRATION.approvalEvent)) as { by: string };
  return { sum, approvedBy: approval.by };
});

/** Starts the orchestration through the real Durable client (`df.getClient`). */
app.http('startFanOut', {
  route: 'orchestrations/fanout',
  methods: ['POST'],
  extraInputs: [df.input.durableClient()],
  handler: async (request: HttpRequest, context: InvocationContext) => {
    const client = df.getClient(context);
    const input = (await request.json()) as FanOutInput;
    const instanceId = await client.startNew(ORCHESTRATION.fanOut, { input });
    return { status: 202, jsonBody: { instanceId } };
  },
});

/** Raises the approval event from another HTTP route. */
app.http('approveOrchestration', {
  route: 'orchestrations/{id}/approve',
  methods: ['POST'],
  extraInputs: [df.input.durableClient()],
  handler: async (request: HttpRequest, context: InvocationContext) => {
    const client = df.getClient(context);
    await client.raiseEvent(request.params.id ?? '', ORCHESTRATION.approvalEvent, await request.json());
    return { status: 202 };
  },
});

app.http('orchestrationStatus', {
  route: 'orchestrations/{id}',
  methods: ['GET'],
  extraInputs: [df.input.durableClient()],
  handler: async (request: HttpRequest, context: InvocationContext) => {
    const status = await df.getClient(context).getStatus(request.params.id ?? '');
    return { jsonBody: { runtimeStatus: status.runtimeStatus, customStatus: status.customStatus, output: status.output } };
  },
});
