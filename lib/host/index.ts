/** The embedded host: runs the Azure Functions app on one machine (see README.md). */
export { startHost, DURABLE_WEBHOOK_PREFIX, type EmbeddedHost, type StartHostOptions } from './host.js';
export { installSignalHandlers, type SignalHandlerOptions } from './signals.js';
export { runHostCli, parseHostCliArgs, type HostCliOptions } from './cli.js';
export { captureApp, captureRegistrations, FUNCTIONS_CORE_MODULE, type CapturedApp, type CaptureOptions } from './capture.js';
export { recordSetupLog, type AppSetup } from './appSetup.js';
export {
  createInvoker,
  type DocumentWriter,
  type InvokerOptions,
  type OutputDocument,
  type OutputMessage,
  type QueueSender,
} from './invoke.js';
export { planBindings, resolveAppSettings, validateBindings, RETURN_BINDING_KEY, type BindingPlan, type OutputRoute } from './bindings.js';
export { openHostDatabase, HOST_DATABASE_FILE, type HostDatabase } from './database.js';
export { createConsoleLogger, silentLogger, type HostLogger, type HostLogLevel } from './logger.js';
export {
  HttpTriggerServer,
  DEFAULT_MAX_REQUEST_BODY_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type HttpMount,
  type HttpTriggerServerOptions,
  type MountRequest,
  type MountResponse,
} from './http/server.js';
export type { HostKeys } from './http/auth.js';
export { compileRouteTemplate, type RouteTemplate } from './http/routeTemplate.js';
export { TimerTriggerHost, type TimerHostOptions } from './timer/timerHost.js';
export { parseTimerSchedule, InvalidScheduleError, type TimerSchedule } from './timer/schedule.js';
export {
  TRIGGER_KINDS,
  type BindingMetadata,
  type FunctionCallback,
  type FunctionMetadata,
  type FunctionRegistration,
  type InvokeFunction,
  type TriggerKind,
} from './registration.js';
export { ChangeLog } from './changefeed/changeLog.js';
export type { DeadLetteredMessage } from './servicebus/types.js';
export { SqliteQueueEngine } from './servicebus/queueEngine.js';
