import { randomUUID } from 'node:crypto';
import { format } from 'node:util';
import type { InvocationContext } from '@azure/functions';
import { planBindings, type BindingPlan, type OutputRoute } from './bindings.js';
import { functionsLibrary } from './functionsLibrary.js';
import { incomingTraceParent, invocationTrace } from './invocationTrace.js';
import { logArguments } from './logArguments.js';
import { silentLogger, toHostLogLevel, type HostLogger } from './logger.js';
import type { FunctionRegistration, InvokeFunction } from './registration.js';

/** One message as an output binding produces it (a subset of the queue engine's OutboundMessage). */
export interface OutputMessage {
  body: unknown;
}

/** Document shape the containers accept. */
export type OutputDocument = Record<string, unknown> & { id: string };

/** The sending side of the queue engine the invoker needs (G's SqliteQueueEngine fits). */
export interface QueueSender {
  send(queueName: string, messages: OutputMessage[]): { accepted: number; duplicates: number };
}

/** The document side of the embedded containers the invoker needs (G's DocumentContainers fits). */
export interface DocumentWriter {
  upsert(containerName: string, docs: OutputDocument[]): unknown;
}

export interface InvokerOptions {
  queues: QueueSender;
  containers: DocumentWriter;
  /** Value for `durableClient` input bindings (H's durableClientInput(baseUrl, hub)); read per invocation. */
  durableClientInput?: () => unknown;
  /** Runs all output writes of one invocation atomically (e.g. `(fn) => db.transaction(fn)()`). */
  transaction?: (write: () => void) => void;
  logger?: HostLogger;
}

type PendingWrite = () => void;

function asItems(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function toDocument(item: unknown, route: { bindingName: string; containerName: string }): OutputDocument {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new TypeError(`cosmosDB output "${route.bindingName}" expects an object or an array of objects, got ${typeof item}.`);
  }
  const doc = item as Record<string, unknown>;
  if (doc.id === undefined || doc.id === null) return { ...doc, id: randomUUID() };
  if (typeof doc.id !== 'string' || doc.id === '') {
    throw new TypeError(`cosmosDB output "${route.bindingName}": a document "id" must be a non-empty string.`);
  }
  return doc as OutputDocument;
}

function pendingWrite(route: OutputRoute, value: unknown, options: InvokerOptions): PendingWrite | undefined {
  if (value === undefined || value === null || route.kind === 'http') return undefined;
  if (route.kind === 'serviceBus') {
    const messages = asItems(value).map((body) => ({ body }));
    return () => void options.queues.send(route.queueName, messages);
  }
  const docs = asItems(value).map((item) => toDocument(item, route));
  return () => void options.containers.upsert(route.containerName, docs);
}

function planFor(cache: WeakMap<FunctionRegistration, BindingPlan>, registration: FunctionRegistration): BindingPlan {
  let plan = cache.get(registration);
  if (!plan) {
    const planned = planBindings(registration);
    if (Array.isArray(planned)) throw new Error(`Cannot invoke: ${planned.join('; ')}.`);
    plan = planned;
    cache.set(registration, plan);
  }
  return plan;
}

/**
 * The host's InvokeFunction: builds the InvocationContext (trigger metadata, effective binding options, extra
 * inputs such as the durable client, a log handler), calls the handler, then routes `context.extraOutputs` and
 * the return value to their bindings (serviceBus -> queue send, cosmosDB -> container upsert; arrays mean several
 * messages or documents) in one transaction, and resolves with the handler's result. A handler error rejects and
 * no output is written.
 */
export function createInvoker(options: InvokerOptions): InvokeFunction {
  const logger = options.logger ?? silentLogger;
  const plans = new WeakMap<FunctionRegistration, BindingPlan>();
  const { InvocationContext: Context } = functionsLibrary();
  const runWrites = options.transaction ?? ((write: () => void) => write());

  return async (registration, triggerInput, invocation) => {
    const plan = planFor(plans, registration);
    const invocationId = invocation?.invocationId ?? randomUUID();
    const functionName = registration.name;
    const trace = invocationTrace(invocation?.traceParent ?? incomingTraceParent(invocation?.triggerMetadata));
    const logged = { functionName, invocationId, trace_id: trace.traceId, span_id: trace.spanId };
    const context: InvocationContext = new Context({
      invocationId,
      functionName,
      triggerMetadata: invocation?.triggerMetadata,
      traceContext: { traceParent: trace.traceParent, traceState: undefined, attributes: {} },
      logHandler: (level, ...args) => {
        const { values, fields } = logArguments(args);
        logger.log(toHostLogLevel(level), format(...values), { ...logged, ...fields });
      },
      options: {
        trigger: plan.trigger,
        return: plan.returnBinding,
        extraInputs: plan.extraInputs,
        extraOutputs: plan.extraOutputs,
      },
    });
    for (const input of plan.inputs) {
      if (!options.durableClientInput) throw new Error(`Function "${functionName}" needs a durable client, but the host has no task hub.`);
      context.extraInputs.set(input.bindingName, options.durableClientInput());
    }

    const result: unknown = await registration.callback(triggerInput, context);

    const writes: PendingWrite[] = [];
    for (const route of plan.outputs) {
      const write = pendingWrite(route, context.extraOutputs.get(route.bindingName), options);
      if (write) writes.push(write);
    }
    if (plan.returnOutput) {
      const write = pendingWrite(plan.returnOutput, result, options);
      if (write) writes.push(write);
    }
    if (writes.length > 0) runWrites(() => writes.forEach((write) => write()));
    return result;
  };
}
