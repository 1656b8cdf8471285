import type { InvocationContext } from '@azure/functions';

/** Trigger binding types the embedded host serves (the `type` of a function's trigger binding). */
export const TRIGGER_KINDS = [
  'httpTrigger',
  'serviceBusTrigger',
  'cosmosDBTrigger',
  'timerTrigger',
  'orchestrationTrigger',
  'activityTrigger',
  'entityTrigger',
] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

/** One binding as @azure/functions puts it in the function metadata (camelCase option names). */
export interface BindingMetadata {
  type: string;
  direction: 'in' | 'out' | 'inout';
  name?: string;
  [option: string]: unknown;
}

/** The metadata @azure/functions hands to `registerFunction` (see @azure/functions-core's types). */
export interface FunctionMetadata {
  name: string;
  bindings: Record<string, BindingMetadata>;
  retryOptions?: unknown;
  [key: string]: unknown;
}

/** The callback @azure/functions registers: the handler, called as (trigger input, invocation context). */
export type FunctionCallback = (triggerInput: unknown, context: InvocationContext) => unknown;

/** One captured registration, with its trigger binding picked out. */
export interface FunctionRegistration {
  name: string;
  kind: TriggerKind;
  trigger: BindingMetadata;
  metadata: FunctionMetadata;
  callback: FunctionCallback;
}

/**
 * How trigger engines call a function: the host builds the InvocationContext (extra inputs such as the durable
 * client, extra outputs routed to queues and containers) and returns the handler's result.
 */
export type InvokeFunction = (
  registration: FunctionRegistration,
  triggerInput: unknown,
  options?: {
    triggerMetadata?: Record<string, unknown>;
    invocationId?: string;
    /** the trigger's incoming W3C traceparent when not in its metadata (an HTTP request's header) */
    traceParent?: string;
  },
) => Promise<unknown>;
