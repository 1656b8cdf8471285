import type { BindingMetadata, FunctionRegistration } from './registration.js';

/** Key under which @azure/functions stores a function's return binding. */
export const RETURN_BINDING_KEY = '$return';

/** Where an output binding's value goes. 'http' is the HTTP response itself (mapped by the HTTP server). */
export type OutputRoute =
  | { kind: 'serviceBus'; bindingName: string; queueName: string }
  | { kind: 'cosmosDB'; bindingName: string; containerName: string }
  | { kind: 'http'; bindingName: string };

/** Input bindings the host fills; other input types are rejected by validateBindings. */
export type InputRoute = { kind: 'durableClient'; bindingName: string };

/** A binding as InvocationContext.options lists it (always with its name). */
export type NamedBinding = BindingMetadata & { name: string };

/** The registration's bindings sorted the way @azure/functions' fromRpcBindings does for InvocationContext.options. */
export interface BindingPlan {
  trigger: NamedBinding;
  returnBinding: NamedBinding | undefined;
  extraInputs: NamedBinding[];
  extraOutputs: NamedBinding[];
  inputs: InputRoute[];
  /** Routes for extra outputs (read from context.extraOutputs) and, last, for the return binding. */
  outputs: OutputRoute[];
  returnOutput: OutputRoute | undefined;
}

function routeOutput(bindingName: string, binding: BindingMetadata): OutputRoute | string {
  const type = binding.type.toLowerCase();
  if (type === 'http') return { kind: 'http', bindingName };
  if (type === 'servicebus') {
    if (typeof binding.topicName === 'string') return `serviceBus output "${bindingName}" targets a topic (only queues are served)`;
    if (typeof binding.queueName !== 'string' || !binding.queueName) return `serviceBus output "${bindingName}" has no queueName`;
    return { kind: 'serviceBus', bindingName, queueName: binding.queueName };
  }
  if (type === 'cosmosdb') {
    const containerName = binding.containerName ?? binding.collectionName;
    if (typeof containerName !== 'string' || !containerName) return `cosmosDB output "${bindingName}" has no containerName`;
    return { kind: 'cosmosDB', bindingName, containerName };
  }
  return `output binding "${bindingName}" of type "${binding.type}" is not served by the embedded host`;
}

function routeInput(bindingName: string, binding: BindingMetadata): InputRoute | string {
  const type = binding.type.toLowerCase();
  if (type === 'durableclient' || type === 'orchestrationclient') return { kind: 'durableClient', bindingName };
  return `input binding "${bindingName}" of type "${binding.type}" is not served by the embedded host`;
}

/** Builds the binding plan, or lists why the host cannot serve the function's bindings. */
export function planBindings(registration: FunctionRegistration): BindingPlan | string[] {
  const problems: string[] = [];
  let trigger: NamedBinding | undefined;
  let returnBinding: NamedBinding | undefined;
  let returnOutput: OutputRoute | undefined;
  const extraInputs: NamedBinding[] = [];
  const extraOutputs: NamedBinding[] = [];
  const inputs: InputRoute[] = [];
  const outputs: OutputRoute[] = [];
  for (const [key, raw] of Object.entries(registration.metadata.bindings)) {
    const binding: NamedBinding = { ...raw, name: key };
    if (/trigger$/i.test(binding.type)) {
      trigger = binding;
    } else if (key === RETURN_BINDING_KEY) {
      returnBinding = binding;
      const route = routeOutput(key, binding);
      if (typeof route === 'string') problems.push(route);
      else returnOutput = route;
    } else if (binding.direction === 'in') {
      extraInputs.push(binding);
      const route = routeInput(key, binding);
      if (typeof route === 'string') problems.push(route);
      else inputs.push(route);
    } else {
      extraOutputs.push(binding);
      const route = routeOutput(key, binding);
      if (typeof route === 'string') problems.push(route);
      else outputs.push(route);
    }
  }
  if (!trigger) problems.push('no trigger binding');
  if (problems.length > 0 || !trigger) return problems.map((p) => `function "${registration.name}": ${p}`);
  return { trigger, returnBinding, extraInputs, extraOutputs, inputs, outputs, returnOutput };
}

/** Every problem with the bindings of these registrations (empty when the host can serve them all). */
export function validateBindings(registrations: readonly FunctionRegistration[]): string[] {
  return registrations.flatMap((registration) => {
    const plan = planBindings(registration);
    return Array.isArray(plan) ? plan : [];
  });
}

const APP_SETTING = /%([^%\s]+)%/g;

function resolveValue(value: unknown, env: Readonly<Record<string, string | undefined>>, missing: Set<string>): unknown {
  if (typeof value !== 'string' || !value.includes('%')) return value;
  return value.replace(APP_SETTING, (whole, name: string) => {
    const setting = env[name];
    if (setting === undefined) {
      missing.add(name);
      return whole;
    }
    return setting;
  });
}

/**
 * Resolves `%AppSetting%` references in string binding options (queue names, container names, schedules) from
 * the environment, as the Functions host does when it indexes the app. Throws naming every missing setting.
 */
export function resolveAppSettings(
  registration: FunctionRegistration,
  env: Readonly<Record<string, string | undefined>> = process.env,
): FunctionRegistration {
  const missing = new Set<string>();
  const resolveBinding = (binding: BindingMetadata): BindingMetadata => {
    const entries = Object.entries(binding).map(([key, value]) => [key, resolveValue(value, env, missing)] as const);
    return Object.fromEntries(entries) as BindingMetadata;
  };
  const bindings = Object.fromEntries(
    Object.entries(registration.metadata.bindings).map(([key, binding]) => [key, resolveBinding(binding)]),
  );
  if (missing.size > 0) {
    const names = [...missing].map((n) => `"${n}"`).join(', ');
    throw new Error(`Function "${registration.name}" refers to app settings ${names}, which are not set in the environment.`);
  }
  return {
    ...registration,
    trigger: resolveBinding(registration.trigger),
    metadata: { ...registration.metadata, bindings },
  };
}
