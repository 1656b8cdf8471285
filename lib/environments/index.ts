// The public surface of lib/environments: stateful API simulators for stateful cases (issue 12).
export {
  EnvironmentApiError,
  EnvironmentInstance,
  UnknownEnvironmentError,
  type EnvironmentAnswer,
  type EnvironmentDefinition,
  type EnvironmentOperation,
} from './environment.js';
export { ENVIRONMENTS, environmentDefinition, environmentProblem, startEnvironment } from './registry.js';
export { EnvironmentSession, replayCalls, startSession, type SessionAnswer } from './session.js';
export { EnvironmentApiProvider, toApiResponse } from './environmentProvider.js';
export { RETAIL_ENVIRONMENT } from './retail/retailEnvironment.js';
export { RETAIL_CATALOG } from './retail/retailCatalog.js';
export type { RetailState } from './retail/retailState.js';
