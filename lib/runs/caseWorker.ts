import { TestCaseSchema, type Scorecard, type TestCase } from '../domain/index.js';
import { type CaseState, finishCase, nextStage, runExecution, runSemantics, startCase, startFailedCase } from '../evaluation/index.js';
import type { PoisonMessage, QueueMessage, Services } from '../ports/index.js';
import { contextFromTraceparent, endSpan, isMetering, isTracing, recordTasks, SPANS, startSpan, ATTRIBUTES } from '../telemetry/index.js';
import { observeStep, tracedInvoke, tracedStage } from './caseTelemetry.js';
import { executesInline } from './inlineExecution.js';
import { CaseMessageSchema, QUEUES, caseMessageId, type CaseMessage, type QueueStage } from './queues.js';
import { decideTargetFailure, redeliveryMessage } from './caseRedelivery.js';
import { decideFailedMessage, invalidMessage, POISON_REASONS } from './poisonMessages.js';
import type { Context } from '@opentelemetry/api';
import type { RunContext, RunContextCache } from './runContext.js';
import { toolCatalogRecorder } from './recordToolCatalog.js';
import { withRunPriority } from './stagePriority.js';
import { failRun, unfixableReason } from './unfixableError.js';
import { loadRunCases, pinScorecard, runCaseKey } from './loadRunCases.js';

export interface WorkerResult {
  /** scorecards written (new or changed) */
  written: number;
  /** scorecards that were already stored (a redelivered message) */
  unchanged: number;
  forwarded: number;
  /** messages of runs that are finished, cancelled or gone */
  skipped: number;
  /** cases put off because their target's circuit is open (rescheduled after the open window, not scored) */
  deferred: number;
  /** cases whose target failed, delivered again after a backoff (within config.max_case_deliveries) */
  redelivered: number;
  /** malformed messages (dead-lettered at once when the platform can: retrying cannot fix them) */
  rejected: string[];
  /** runs this batch failed because their configuration cannot work (the caller ends their orchestrations) */
  failed_run_ids: string[];
  /** messages whose processing threw: delivered again after a backoff (the rest of the batch is unaffected) */
  failed: number;
  /** messages dead-lettered by this batch (malformed, or failed MAX_PROCESSING_FAILURES times) */
  dead_lettered: number;
}

/** What the trigger knows about each message of the batch (the Functions trigger metadata's arrays). */
export interface BatchMetadata {
  /** the queue the batch came from */
  queueName?: string;
  messageIds?: ReadonlyArray<string | null | undefined>;
  deliveryCounts?: ReadonlyArray<number | null | undefined>;
  /** kept on a dead-lettered copy: a replayed message carries its previous `DeadLetterReason` there */
  applicationProperties?: ReadonlyArray<Record<string, unknown> | null | undefined>;
}

/**
 * A stage worker's batch: for `evaluate` messages invoke the target and run stages 1-2; for `execute` and
 * `judge` messages run stage 3 or 4 on the carried state. Each case then goes to the next enabled stage's queue,
 * or is finished and its scorecard written (one idempotent upsert for the whole batch). A target failure
 * never throws: while the target's circuit is open the case is put off (a scheduled copy after the open window),
 * a failed call is delivered again after a backoff until `config.max_case_deliveries`, and only then is the case
 * scored with the target's error code (not scored: an infrastructure failure, `caseRedelivery`). Throws only when storage or the queue fails,
 * so the host abandons the batch and it is redelivered (every step is idempotent).
 */
export async function processCaseMessages(
  bodies: readonly unknown[],
  services: Services,
  contexts: RunContextCache,
  abortSignal?: AbortSignal,
  metadata: BatchMetadata = {},
): Promise<WorkerResult> {
  const result: WorkerResult = {
    written: 0,
    unchanged: 0,
    forwarded: 0,
    skipped: 0,
    deferred: 0,
    redelivered: 0,
    rejected: [],
    failed: 0,
    dead_lettered: 0,
    failed_run_ids: [],
  };
  const messages: Array<{ message: CaseMessage; id: string; properties?: Record<string, string | number | boolean> }> = [];
  const poison: PoisonMessage[] = [];
  bodies.forEach((raw, i) => {
    const body = typeof raw === 'string' ? safeJson(raw) : raw;
    const parsed = CaseMessageSchema.safeParse(body);
    const id =
      metadata.messageIds?.[i] ??
      (parsed.success
        ? caseMessageId(parsed.data.run_id, parsed.data.test_case_id, parsed.data.stage, parsed.data.attempt)
        : `invalid:${i}`);
    if (parsed.success) {
      const properties = scalarProperties(metadata.applicationProperties?.[i]);
      messages.push({ message: parsed.data, id, ...(properties ? { properties } : {}) });
      return;
    }
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ');
    result.rejected.push(problems);
    poison.push(
      invalidMessage(body, id, problems, metadata.deliveryCounts?.[i] ?? undefined, scalarProperties(metadata.applicationProperties?.[i])),
    );
  });
  const queue = metadata.queueName ?? (messages[0] ? QUEUES[messages[0].message.stage] : 'unknown');
  try {
    const couldNotScore = await processMessages(messages, result, poison, services, contexts, abortSignal);
    if (poison.length && services.runQueues?.deadLetterMessages)
      result.dead_lettered += await services.runQueues.deadLetterMessages(queue, poison);
    else for (const p of poison) if (p.reason !== POISON_REASONS.invalid) result.rejected.push(`${p.reason}: ${p.description}`);
    recordTasks(queue, messages.length, result.rejected.length, 'malformed');
    recordTasks(queue, 0, couldNotScore, 'could_not_score');
  } catch (error) {
    recordTasks(queue, 0, bodies.length, 'batch_failed');
    throw error;
  }
  return result;
}

/**
 * The valid messages of a batch through their step, each on its own: one that throws is delivered again later
 * (or, after MAX_PROCESSING_FAILURES, added to `poison`) while the others are settled as usual. Throws only when
 * the batch's shared work fails (loading runs and cases, sending, writing scorecards: storage or queue down), so
 * the host abandons the batch and every step is replayed idempotently. Returns how many had a stage that could
 * not score.
 */
async function processMessages(
  received: Array<{ message: CaseMessage; id: string; properties?: Record<string, string | number | boolean> }>,
  result: WorkerResult,
  poison: PoisonMessage[],
  services: Services,
  contexts: RunContextCache,
  abortSignal?: AbortSignal,
): Promise<number> {
  const messages = received.map((r) => r.message);
  // telemetry decided once per batch: while it is off, nothing below allocates for it
  const tracing = isTracing();
  const observe = tracing || isMetering();
  let couldNotScore = 0;
  const live: Array<{ message: CaseMessage; id: string; properties?: Record<string, string | number | boolean>; context: RunContext }> = [];
  // a configuration no retry can fix fails its run at once (instead of failing every case until it dead-letters)
  const unfixable = async (error: unknown, runId: string): Promise<boolean> => {
    const reason = unfixableReason(error);
    if (reason === undefined) return false;
    if (await failRun(runId, reason, services)) result.failed_run_ids.push(runId);
    contexts.forget(runId);
    result.skipped++;
    return true;
  };
  for (const { message, id, properties } of received) {
    let context: RunContext | undefined;
    try {
      context = await contexts.get(message.run_id);
    } catch (error) {
      if (await unfixable(error, message.run_id)) continue;
      throw error;
    }
    if (context) live.push({ message, id, ...(properties ? { properties } : {}), context });
    else result.skipped++;
  }
  const cases = await loadRunCases(
    live.map((l) => ({ run: l.context.run, test_case_id: l.message.test_case_id })),
    services.stores,
  );
  await contexts.preloadCatalogs([...cases.values()]);

  const finished: Scorecard[] = [];
  const forward = new Map<QueueStage, QueueMessage<CaseMessage>[]>();
  const again: QueueMessage<CaseMessage>[] = [];
  const step = async ({ message, context }: { message: CaseMessage; context: RunContext }) => {
    const testCase = cases.get(runCaseKey(message.run_id, message.test_case_id)) ?? deletedCase(message.test_case_id);
    const parent = tracing ? contextFromTraceparent(message.traceparent) : undefined;
    let advanced: Awaited<ReturnType<typeof advance>>;
    try {
      advanced = await advance(message, testCase, context, services, abortSignal, parent);
    } catch (error) {
      if (await unfixable(error, message.run_id)) return;
      throw error;
    }
    if ('redelivery' in advanced) {
      again.push(advanced.redelivery);
      if (advanced.redelivery.body.deferrals !== (message.deferrals ?? 0)) result.deferred++;
      else result.redelivered++;
      return;
    }
    let state = advanced;
    if (observe && observeStep(parent, message, state)) couldNotScore++;
    const config = context.run.config;
    const enabled = { execution: config.execution.enabled, semantics: config.semantics.enabled };
    let next = nextStage(state, enabled);
    if (next === 'execution' && message.stage === 'evaluate' && executesInline(config.execution)) {
      // a local stage 3 (cassette, expected data, environment) in the same step: no execute-queue round trip
      const executed: CaseMessage = { ...message, stage: 'execute' };
      state = await execute(executed, state, testCase, context, abortSignal, parent);
      if (observe && observeStep(parent, executed, state)) couldNotScore++;
      next = nextStage(state, enabled);
    }
    if (next === 'done') {
      finished.push(pinScorecard(finishCase(state, testCase, config, services.clock.now().toISOString()), context.run, testCase));
      return;
    }
    const stage: QueueStage = next === 'execution' ? 'execute' : 'judge';
    const list = forward.get(stage) ?? [];
    list.push({
      messageId: caseMessageId(message.run_id, message.test_case_id, stage, message.attempt, message.trial),
      correlationId: message.run_id,
      body: {
        run_id: message.run_id,
        test_case_id: message.test_case_id,
        attempt: message.attempt,
        ...(message.trial !== undefined && message.trial > 1 ? { trial: message.trial } : {}),
        stage,
        state,
        ...(message.traceparent ? { traceparent: message.traceparent } : {}),
        ...(message.priority ? { priority: message.priority } : {}),
      },
      // the trace context travels in the properties too (Service Bus's Diagnostic-Id), as enqueueShard sends it
      ...(message.traceparent ? { applicationProperties: { traceparent: message.traceparent, 'Diagnostic-Id': message.traceparent } } : {}),
    });
    forward.set(stage, list);
  };
  await Promise.all(
    live.map(async (entry) => {
      try {
        await step(entry);
      } catch (error) {
        // the host's own shutdown is not the message's fault: give the whole batch back
        if (abortSignal?.aborted) throw error;
        result.failed++;
        const decision = decideFailedMessage(entry.message, error, entry.id, services.clock.now());
        if (decision.kind === 'redeliver') again.push(decision.message);
        else poison.push(entry.properties ? { ...decision.poison, applicationProperties: entry.properties } : decision.poison);
      }
    }),
  );
  // a case put off or delivered again: a scheduled copy (own id), sent before this batch completes its original
  for (const stage of ['evaluate', 'execute', 'judge'] as const) {
    const copies = again.filter((m) => m.body.stage === stage);
    if (copies.length) await services.queue.sendMessages(QUEUES[stage], withRunPriority(copies));
  }
  for (const [stage, list] of forward) {
    await services.queue.sendMessages(QUEUES[stage], withRunPriority(list));
    result.forwarded += list.length;
  }
  if (finished.length) {
    const span = tracing
      ? startSpan(SPANS.writeScorecard, finishedTraceparent(messages), { [ATTRIBUTES.scorecards]: finished.length })
      : undefined;
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

async function advance(
  message: CaseMessage,
  testCase: TestCase,
  context: RunContext,
  services: Services,
  abortSignal?: AbortSignal,
  parent?: Context,
): Promise<CaseState | { redelivery: QueueMessage<CaseMessage> }> {
  const config = context.run.config;
  if (message.stage === 'evaluate') {
    const base = {
      runId: message.run_id,
      testCase,
      workerId: services.workerId,
      attempt: message.attempt,
      ...(message.trial !== undefined && message.trial > 1 ? { trial: message.trial } : {}),
      clientType: context.target.client_type,
      evalMode: context.target.settings.kind === 'replay' ? ('replay' as const) : ('live' as const),
    };
    if (testCase.nl_query === DELETED) {
      return startFailedCase(
        base,
        { error_code: 'target_error', message: `test case ${testCase.id} was deleted after the run was planned` },
        config,
      );
    }
    const invokeOptions = { attempt: message.attempt, ...(abortSignal ? { abortSignal } : {}) };
    const invocation = parent
      ? await tracedInvoke(parent, message, context.target.id, () => context.invoker.invoke(testCase, invokeOptions))
      : await context.invoker.invoke(testCase, invokeOptions);
    if (!invocation.ok) {
      const decision = decideTargetFailure(invocation, message, {
        config,
        deadlineAt: context.run.deadline_at,
        now: services.clock.now(),
        retryInMs: invocation.circuit_open ? services.circuitOf?.(context.target.id)?.retry_in_ms : undefined,
      });
      if (decision.kind !== 'score') return { redelivery: redeliveryMessage(message, decision) };
      const deliveries = message.delivery ?? 1;
      const because = deliveries > 1 ? ` (after ${deliveries} deliveries)` : '';
      return startFailedCase(
        { ...base, latencyMs: invocation.latency_ms },
        { ...invocation, message: `${decision.reason}${because}` },
        config,
      );
    }
    // an MCP target's tool list: stored and noted on the run (a changed list is noted like a model-version change)
    if (invocation.tool_catalog) await toolCatalogRecorder(services.stores).record(message.run_id, invocation.tool_catalog);
    const catalog = invocation.tool_catalog ?? context.catalogFor(testCase);
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
        ...(invocation.trajectory !== undefined ? { trajectory: invocation.trajectory } : {}),
        ...(invocation.turns !== undefined ? { turns: invocation.turns } : {}),
        ...(invocation.entities !== undefined ? { entities: invocation.entities } : {}),
        ...(context.target.eval_mode === 'orchestrator' ? { orchestrator: true } : {}),
        ...(invocation.api_calls_made > 0 ? { apiCallsMade: invocation.api_calls_made } : {}),
        ...(catalog ? { catalog } : {}),
      },
      config,
    );
  }
  const state = message.state as CaseState;
  if (message.stage === 'execute') return execute(message, state, testCase, context, abortSignal, parent);
  if (parent)
    return tracedStage(parent, 'semantics', message, () =>
      runSemantics(state, testCase, config, context.judge(), abortSignal, context.embedder()),
    );
  return runSemantics(state, testCase, config, context.judge(), abortSignal, context.embedder());
}

const DELETED = '(deleted from the gold set after the run was planned)';

function deletedCase(id: string): TestCase {
  return TestCaseSchema.parse({ id, nl_query: DELETED, expected_tool_calls: [] });
}

/** The string, number and boolean application properties of a delivered message (what a dead letter can keep). */
function scalarProperties(properties: Record<string, unknown> | null | undefined): Record<string, string | number | boolean> | undefined {
  if (!properties) return undefined;
  const kept = Object.entries(properties).filter((e): e is [string, string | number | boolean] =>
    ['string', 'number', 'boolean'].includes(typeof e[1]),
  );
  return kept.length ? Object.fromEntries(kept) : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Stage 3 of a case through its run's API provider. */
async function execute(
  message: CaseMessage,
  state: CaseState,
  testCase: TestCase,
  context: RunContext,
  abortSignal?: AbortSignal,
  parent?: Context,
): Promise<CaseState> {
  const config = context.run.config;
  const provider = await context.apiProvider(testCase);
  if (parent) return tracedStage(parent, 'execution', message, () => runExecution(state, testCase, config, provider, abortSignal));
  return runExecution(state, testCase, config, provider, abortSignal);
}
