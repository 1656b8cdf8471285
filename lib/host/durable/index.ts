export { TaskHub, type TaskHubOptions, type StartNewOptions } from './taskHub.js';
export {
  createDurableHttpApi,
  type DurableHttpApi,
  type DurableHttpApiOptions,
  type DurableHttpRequest,
  type DurableHttpResponse,
} from './httpApi.js';
export { durableClientInput, durableWebhookBase, DURABLE_WEBHOOK_PATH } from './clientInput.js';
export { DurableHubError, DURABLE_HUB_ERROR_CODES, type DurableHubErrorCode } from './errors.js';
export {
  RUNTIME_STATUSES,
  isTerminal,
  type DurableStatus,
  type RuntimeStatus,
  type StatusHistoryEntry,
  type StatusOptions,
} from './status.js';
export type { InstanceFilter, RaiseResult, TerminateResult } from './store.js';
export type { HubLogger } from './hubLogger.js';
export { SUPPORTED_DURABLE_FUNCTIONS_VERSION } from './dfLibrary.js';
