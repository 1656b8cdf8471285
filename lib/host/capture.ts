import Module from 'node:module';
import { emptyAppSetup, recordSetupLog, type AppSetup } from './appSetup.js';
import { silentLogger, toHostLogLevel, type HostLogger } from './logger.js';
import {
  TRIGGER_KINDS,
  type BindingMetadata,
  type FunctionCallback,
  type FunctionMetadata,
  type FunctionRegistration,
  type TriggerKind,
} from './registration.js';

/** The module the Functions worker injects into the app; @azure/functions requires it lazily on the first app.* call. */
export const FUNCTIONS_CORE_MODULE = '@azure/functions-core';

export interface CaptureOptions {
  /** What to do with a function whose trigger the embedded host cannot serve (default 'throw'). */
  onUnsupportedTrigger?: 'throw' | 'skip';
  /** Receives the library's system logs and warnings about skipped functions or hooks. */
  logger?: HostLogger;
}

interface RawRegistration {
  metadata: FunctionMetadata;
  callback: FunctionCallback;
}

/** What importing the app entry produced: its registrations and its `app.setup(...)` options. */
export interface CapturedApp {
  registrations: FunctionRegistration[];
  setup: AppSetup;
}

interface RawCapture {
  raws: RawRegistration[];
  setup: AppSetup;
}

interface CoreStubState {
  /** Registrations of the capture in progress; undefined between captures. */
  sink: RawRegistration[] | undefined;
  /** `app.setup(...)` options seen during the capture in progress. */
  setup: AppSetup | undefined;
  /** Registrations made while no capture was running (reported in errors). */
  unclaimed: string[];
  logger: HostLogger;
  /** Serialises captures: a registration belongs to the capture whose import is running. */
  tail: Promise<unknown>;
  /** An entry module evaluates once per process: later captures of the same module reuse its registrations. */
  byModule: WeakMap<object, RawCapture>;
}

const STATE_KEY = Symbol.for('evalplatform.host.functionsCoreStub');

class Disposable {
  #onDispose: (() => void) | undefined;
  constructor(onDispose: () => void) {
    this.#onDispose = onDispose;
  }
  dispose(): void {
    this.#onDispose?.();
    this.#onDispose = undefined;
  }
}

function createCoreStub(state: CoreStubState): Record<string, unknown> {
  let programmingModel: unknown;
  return {
    Disposable,
    setProgrammingModel(model: unknown) {
      programmingModel = model;
    },
    getProgrammingModel() {
      return programmingModel;
    },
    registerFunction(metadata: FunctionMetadata, callback: FunctionCallback) {
      if (state.sink) state.sink.push({ metadata, callback });
      else state.unclaimed.push(String(metadata?.name));
      return new Disposable(() => undefined);
    },
    registerHook(hookName: string) {
      state.logger.log('warning', `The embedded host does not run "${hookName}" hooks; the hook is ignored.`);
      return new Disposable(() => undefined);
    },
    log(level: string, category: string, message: string) {
      const isSetup = state.setup !== undefined && recordSetupLog(state.setup, String(category), String(message));
      state.logger.log(isSetup ? 'debug' : toHostLogLevel(level), String(message), { category });
    },
  };
}

type ModuleLoad = (this: unknown, request: string, ...rest: unknown[]) => unknown;

/**
 * Installs (once per process, idempotently) the stand-in for `@azure/functions-core` by wrapping Module._load.
 * @azure/functions is CommonJS and resolves the core module through require() in plain Node ESM, tsx and vitest
 * alike, so this works in all three as long as it happens before the first app.* call of the process.
 */
function installCoreStub(): CoreStubState {
  const holder = globalThis as unknown as Record<symbol, CoreStubState | undefined>;
  const existing = holder[STATE_KEY];
  if (existing) return existing;
  const state: CoreStubState = {
    sink: undefined,
    setup: undefined,
    unclaimed: [],
    logger: silentLogger,
    tail: Promise.resolve(),
    byModule: new WeakMap(),
  };
  const stub = createCoreStub(state);
  const internals = Module as unknown as { _load: ModuleLoad };
  const originalLoad = internals._load;
  internals._load = function load(this: unknown, request: string, ...rest: unknown[]) {
    return request === FUNCTIONS_CORE_MODULE ? stub : originalLoad.call(this, request, ...rest);
  };
  holder[STATE_KEY] = state;
  return state;
}

function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

function findTriggerKind(type: string): TriggerKind | undefined {
  const lower = type.toLowerCase();
  return TRIGGER_KINDS.find((kind) => kind.toLowerCase() === lower);
}

function toRegistration(raw: RawRegistration): FunctionRegistration | string {
  const name = raw.metadata.name;
  const bindings = Object.entries(raw.metadata.bindings ?? {});
  const triggers = bindings.filter(([, binding]) => /trigger$/i.test(binding.type) && binding.direction === 'in');
  if (triggers.length !== 1) return `function "${name}" has ${triggers.length} trigger bindings (expected exactly one)`;
  const [bindingName, binding] = triggers[0] as [string, BindingMetadata];
  const kind = findTriggerKind(binding.type);
  if (!kind) return `function "${name}" uses trigger type "${binding.type}", which the embedded host does not serve`;
  return { name, kind, trigger: { ...binding, name: binding.name ?? bindingName }, metadata: raw.metadata, callback: raw.callback };
}

async function runCapture(state: CoreStubState, importEntry: () => Promise<unknown>, options: CaptureOptions): Promise<CapturedApp> {
  const sink: RawRegistration[] = [];
  state.sink = sink;
  state.setup = emptyAppSetup();
  const captured: RawCapture = { raws: sink, setup: state.setup };
  state.logger = options.logger ?? silentLogger;
  let entryModule: unknown;
  try {
    entryModule = await importEntry();
  } finally {
    state.sink = undefined;
    state.setup = undefined;
    state.logger = silentLogger;
  }
  let { raws, setup } = captured;
  if (isObject(entryModule)) {
    const earlier = state.byModule.get(entryModule);
    if (raws.length > 0) state.byModule.set(entryModule, captured);
    else if (earlier) ({ raws, setup } = earlier);
  }
  if (raws.length === 0) {
    const hint = state.unclaimed.length
      ? ` Functions ${state.unclaimed.map((n) => `"${n}"`).join(', ')} were registered outside a capture: import the app only through captureRegistrations.`
      : ' Either the entry registers nothing, or @azure/functions was used (and switched to test mode) before the host installed its core module.';
    throw new Error(`No function registrations were captured from the app entry.${hint}`);
  }
  const seen = new Set<string>();
  const registrations: FunctionRegistration[] = [];
  const problems: string[] = [];
  for (const raw of raws) {
    if (seen.has(raw.metadata.name)) problems.push(`function name "${raw.metadata.name}" is registered twice`);
    seen.add(raw.metadata.name);
    const result = toRegistration(raw);
    if (typeof result !== 'string') registrations.push(result);
    else if (options.onUnsupportedTrigger === 'skip') options.logger?.log('warning', `Skipping ${result}.`);
    else problems.push(result);
  }
  if (problems.length > 0) throw new Error(`Invalid function app: ${problems.join('; ')}.`);
  return { registrations, setup };
}

/**
 * Imports the function app entry with the host's `@azure/functions-core` in place and returns every registration
 * it made (`app.*`, `df.app.*`), in registration order. Captures run one at a time; capturing an entry whose module
 * was already evaluated in this process returns the registrations recorded the first time (keyed by the module
 * namespace object the import returns). Throws when nothing is captured, a name repeats, or (by default) a
 * trigger kind is not served by the embedded host.
 */
export async function captureRegistrations(
  importEntry: () => Promise<unknown>,
  options: CaptureOptions = {},
): Promise<FunctionRegistration[]> {
  return (await captureApp(importEntry, options)).registrations;
}

/**
 * captureRegistrations plus the app's `app.setup(...)` options (`enableHttpStream`, `capabilities`), recorded from
 * the library's system log during the import (see appSetup.ts). The host keeps its own request/response mapping
 * either way: it never hands the library's ProgrammingModel a request, so `enableHttpStream` cannot make it wait
 * for a proxied request from a Functions host. A later capture of the same entry module returns the options
 * recorded the first time.
 */
export function captureApp(importEntry: () => Promise<unknown>, options: CaptureOptions = {}): Promise<CapturedApp> {
  const state = installCoreStub();
  const result = state.tail.then(() => runCapture(state, importEntry, options));
  state.tail = result.catch(() => undefined);
  return result;
}
