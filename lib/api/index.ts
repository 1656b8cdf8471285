export { ROUTES } from './routeTable.js';
export { handleRequest, type ApiRequest } from './handleRequest.js';
export { defineRoute, type ApiResult, type RouteDefinition, type RouteContext, type RunOrchestrations } from './route.js';
export { ApiError, toProblem, type FieldError, type ProblemResponse } from './problem.js';
export { createApiKey, authenticateApiKey, presentedKey } from './apiKeys.js';
export { apiKeyView, ApiKeyViewSchema, CreateApiKeyRequestSchema, type ApiKeyView } from './apiKeys.js';
export { configureApiSecurity, apiAuthenticatorFor } from './apiSecurity.js';
export {
  apiSecuritySettingsFromEnv,
  ApiSecurityEnvSchema,
  DEFAULT_API_RATE_LIMIT,
  type ApiSecuritySettings,
} from './apiSecuritySettings.js';
export { ApiAuthenticator, isJwtShaped } from './authenticate.js';
export { createEntraIdVerifier, rolesFromClaim, EntraTokenError, type EntraIdSettings, type EntraIdVerifier } from './entraId.js';
export { PrincipalRateLimiter, type ApiRateLimitSettings, type RateLimitDecision } from './rateLimit.js';
export { auditRecordOf, localKeyAuditRecord, requestIdOf } from './audit.js';
export type { ImportSummary } from './routes/testCases/importResult.js';
export type { ProbeResult } from './routes/targetProbe.js';
export type { FailureView } from './routes/runFailures.js';
export { cleanUpEvaluateJobs, DEFAULT_EVALUATE_JOB_RETENTION_DAYS, type JobCleanupReport } from './compat/compatJobCleanup.js';
