export {
  failureBlamesCall,
  type ApiFailure,
  type ApiProvider,
  type ApiProviderKind,
  type ApiResponse,
  type ApiSuccess,
  type ExecuteContext,
} from '../../ports/apiProvider.js';
export { ExecutionConfigurationError } from '../../ports/executionErrors.js';
export { HttpApiProvider, DEFAULT_HTTP_TIMEOUT_MS, type HttpApiProviderOptions } from '../../adapters/execution/httpApiProvider.js';
export { compileHttpRoute, buildHttpRequest, type HttpRoute, type HttpRequestPlan, type HttpMethod } from '../../adapters/execution/httpRoute.js';
export { RecordedApiProvider, type RecordedApiProviderOptions, type RecordingMode } from './recordedApiProvider.js';
export { CassetteEntrySchema, InMemoryCassette, cassetteEntryFor, type CassetteEntry, type CassetteStore } from '../../ports/cassette.js';
export { JsonlCassette, type LoadCassetteOptions } from '../../adapters/execution/jsonlCassette.js';
export { ExpectedDataProvider } from './expectedDataProvider.js';
export { representativeValue } from './representativeValue.js';
export {
  runExecutionStage,
  DEFAULT_RELATIVE_TOLERANCE,
  DEFAULT_MAX_CONCURRENCY,
  type CallAssignment,
  type ExecutionStageOptions,
  type ExecutionStageOutput,
} from './runExecutionStage.js';
export type { ExecutionCallDetail, ExecutionDetails, ExecutedCall } from './executionDetails.js';
export { describeDiffEntry } from './executionDetails.js';
export { createApiProvider, type ApiProviderDeps } from '../../app/createApiProvider.js';
