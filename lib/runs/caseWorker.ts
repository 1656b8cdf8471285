import { TestCaseSchema, type Scorecard, type TestCase } from '../domain/index.js';
import {
  finishCase,
  nextStage,
  runExecution,
  runSemantics,
  startCase,
  startFailedCase,
  type CaseState,
} from '../evaluation/pipeline/index.js';
import type { QueueMessage } from '../ports/index.js';
import type { Services } from '../app/services.js';
import { contextFromTraceparent, endSpan, isMetering, isTracing, recordTasks, SPANS, startSpan, ATTRIBUTES } from '../telemetry/index.js';
import { observeStep, tracedInvoke, tracedStage } from './caseTelemetry.js';
import { CaseMessageSchema, QUEUES, caseMessageId, type CaseMessage, type QueueStage } from './queues.js';
import type { Context } from '@opentelemetry/api';
import type { RunContext, RunContextCache } from './runContext.js';

export interface WorkerResult {
  /** scorecards written (new or changed) */
  written: number;
  /** scorecards that were already stored (a redelivered message) */
  unchanged: number;
  forwarded: number;
  /** messages of runs that are finished, cancelled or gone */
  skipped: number;
  /** malformed messages (logged, not retried: retrying cannot fix them) */
  rejected: string[];
}

/**
 * A stage worker's batch: for `evaluate` messages invoke the target and run stages 1-2; for `execute` and
 * `judge` messages run stage 3 or 4 on the carried state. Each case then goes to the next enabled stage's queue,
 * or is finished and its scorecard written (one idempotent upsert for the whole batch). A target failure
 * never throws: the case is scored with the target's error code. Throws only when storage or the queue fails,
 * so the host abandons the batch and it is redelivered (every step is idempotent).
 */
export async function processCaseMessages(bodies: readonly unknown[], services: Services, contexts: RunContextCache, abortSignal?: AbortSignal): Promise<WorkerResult> {
  const result: WorkerResult = { written: 0, unchanged: 0, forwarded: 0, skipped: 0, rejected: [] };
  const messages: CaseMessage[] = [];
  for (const body of bodies) {
    const parsed = CaseMessageSchema.safeParse(typeof body === 'string' ? safeJson(body) : body);
    if (parsed.success) messages.push(parsed.data);
    else result.rejected.push(parsed.error.issues.map((i) => `${i.path.join('.') || 'message'}: ${i.message}`).join('; '));
  }
  const queue = messages[0] ? QUEUES[messages[0].stage] : 'unknown';
  try {
    const couldNotScore = await processMessages(messages, result, services, contexts, abortSignal);
    recordTasks(queue, messages.length, result.rejected.length, 'malformed');
    recordTasks(queue, 0, couldNotScore, 'could_not_score');
  } catch (error) {
    recordTasks(queue, 0, bodies.length, 'batch_failed');
    throw error;
  }
  return result;
}

/** The valid messages of a batch through their step; returns how many had a stage that could not score. */
async function processMessages(messages: CaseMessage[], result: WorkerResult, services: Services, contexts: RunContextCache, abortSignal?: AbortSignal): Promise<number> {
  // telemetry decided once per batch: while it is off, nothing below allocates for it
  const tracing = isTracing();
  const observe = tracing || isMetering();
  let couldNotScore = 0;
  const live: Array<{ message: CaseMessage; context: RunContext }> = [];
  for (const message of messages) {
    const context = await contexts.get(message.run_id);
    if (context) live.push({ message, context });
    else result.skipped++;
  }
  const cases = await loadCases(live.map((l) => l.message.test_case_id), services);
  await contexts.preloadCatalogs([...cases.values()]);

  const finished: Scorecard[] = [];
  const forward = new Map<QueueStage, QueueMessage<CaseMessage>[]>();
  await Promise.all(
    live.map(async ({ message, context }) => {
      const testCase = cases.get(message.test_case_id) ?? deletedCase(message.test_case_id);
      const parent = tracing ? contextFromTraceparent(message.traceparent) : undefined;
      const state = await advance(message, testCase, context, services, abortSignal, parent);
      if (observe && observeStep(parent, message, state)) couldNotScore++;
      const config = context.run.config;
      const next = nextStage(state, { execution: config.execution.enabled, semantics: config.semantics.enabled });
      if (next === 'done') {
        finished.push(finishCase(state, testCase, config, services.clock.now().toISOString()));
        return;
      }
      const stage: QueueStage = next === 'execution' ? 'execute' : 'judge';
      const list = forward.get(stage) ?? [];
      list.push({
        messageId: caseMessageId(message.run_id, message.test_case_id, stage, message.attempt),
        correlationId: message.run_id,
        body: { run_id: message.run_id, test_case_id: message.test_case_id, attempt: message.attempt, stage, state, ...(message.traceparent ? { traceparent: message.traceparent } : {}) },
        // the trace context travels in the properties too (Service Bus's Diagnostic-Id), as enqueueShard sends it
        ...(message.traceparent ? { applicationProperties: { traceparent: message.traceparent, 'Diagnostic-Id': message.traceparent } } : {}),
      });
      forward.set(stage, list);
    }),
  );
  for (const [stage, list] of forward) {
    await services.queue.sendMessages(QUEUES[stage], list);
    result.forwarded += list.length;
  }
  if (finished.length) {
    const span = tracing ? startSpan(SPANS.writeScorecard, finishedTraceparent(messages), { [ATTRIBUTES.scorecards]: finished.length }) : undefined;
    try {
      const r = await services.stores.scorecards.upsertScorecards(finished);
      result.written += r.written;
      result.unchanged += r.unchanged;
      endSpan(span);
    } catch (error) {
      endSpan(span, error);
      throw error;
    }
  }
  return couldNotScore;
}

/** The trace the batch's scorecard write belongs to: the first message's (a batch is one run's, almost always). */
function finishedTraceparent(messages: readonly CaseMessage[]): string | undefined {
  return messages.find((m) => m.traceparent)?.traceparent;
}

async function advance(message: CaseMessage, testCase: TestCase, context: RunContext, services: Services, abortSignal?: AbortSignal, parent?: Context): Promise<CaseState> {
  const config = context.run.config;
  if (message.stage === 'evaluate') {
    const base = {
      runId: message.run_id,
      testCase,
      workerId: services.workerId,
      attempt: message.attempt,
      clientType: context.target.client_type,
      evalMode: context.target.settings.kind === 'replay' ? ('replay' as const) : ('live' as const),
    };
    if (testCase.nl_query === DELETED) {
      return startFailedCase(base, { error_code: 'target_error', message: `test case ${testCase.id} was deleted after the run was planned` }, config);
    }
    const invokeOptions = { attempt: message.attempt, ...(abortSignal ? { abortSignal } : {}) };
    const invocation = parent
      ? await tracedInvoke(parent, message, context.target.id, () => context.invoker.invoke(testCase, invokeOptions))
      : await context.invoker.invoke(testCase, invokeOptions);
    if (!invocation.ok) return startFailedCase({ ...base, latencyMs: invocation.latency_ms }, invocation, config);
    const catalog = context.catalogFor(testCase);
    return startCase(
      {
        ...base,
        output: invocation.output,
        latencyMs: invocation.latency_ms,
        inputTokens: invocation.input_tokens,
        outputTokens: invocation.output_tokens,
        costUsd: invocation.cost_usd,
        clientVersion: invocation.client_version ?? context.target.client_version ?? null,
        ...(invocation.agent !== undefined ? { agent: invocation.agent } : {}),
        ...(invocation.routing_reason !== undefined ? { routingReason: invocation.routing_reason } : {}),
        ...(catalog ? { catalog } : {}),
      },
      config,
    );
  }
  const state = message.state as CaseState;
  if (message.stage === 'execute') {
    const provider = await context.apiProvider(testCase);
    if (parent) return tracedStage(parent, 'execution', message, () => runExecution(state, testCase, config, provider, abortSignal));
    return runExecution(state, testCase, config, provider, abortSignal);
  }
  if (parent) return tracedStage(parent, 'semantics', message, () => runSemantics(state, testCase, config, context.judge(), abortSignal, context.embedder()));
  return runSemantics(state, testCase, config, context.judge(), abortSignal, context.embedder());
}

async function loadCases(ids: readonly string[], services: Services): Promise<Map<string, TestCase>> {
  const unique = [...new Set(ids)];
  const found = unique.length ? await services.stores.testCases.getTestCases(unique) : [];
  return new Map(found.map((tc) => [tc.id, tc]));
}

const DELETED = '(deleted from the gold set after the run was planned)';

function deletedCase(id: string): TestCase {
  return TestCaseSchema.parse({ id, nl_query: DELETED, expected_tool_calls: [] });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
